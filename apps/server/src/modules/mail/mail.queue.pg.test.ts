import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresDb, type Db } from '../../db/client';
import { buildTestApp, createTestClock, createTestDb, type TestApp } from '../../testing/build-test-app';
import { insertCustomer } from '../../testing/factories';
import { freePort } from '../../testing/throwaway-servers';
import { CLAIM_LEASE_MS, createMailer } from './mail.service';
import { createMailDelivery, createMailRepo, createSmtpSend, mailRetryDelayMs, type MailDelivery } from './index';

/**
 * ADR 0074 "SMTP down": every mail is a row of mail_outbox first, sent by the delivery job once the SMTP
 * server accepts it. A real SMTP server (smtp-server) on a port of this test, which the test closes and
 * opens again; two app instances on one PostgreSQL database. Nothing is lost and nothing is sent twice.
 */
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';

interface Received {
  to: string;
  subject: string;
  messageId: string;
  raw: string;
}
const received: Received[] = [];
let port: number;
let smtpUrl: string;
let server: SMTPServer | undefined;
/** How long the server takes to accept each mail. */
let acceptDelayMs = 0;

const smtpUp = async (): Promise<void> => {
  if (server) return;
  const s = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        setTimeout(() => {
          received.push({
            to: /^To: (.*)$/im.exec(raw)?.[1]?.trim() ?? '',
            subject: /^Subject: (.*)$/im.exec(raw)?.[1]?.trim() ?? '',
            messageId: /^Message-ID: (.*)$/im.exec(raw)?.[1]?.trim() ?? '',
            raw,
          });
          callback();
        }, acceptDelayMs);
      });
    },
  });
  await new Promise<void>((resolve) => s.listen(port, '127.0.0.1', resolve));
  server = s;
};
const smtpDown = async (): Promise<void> => {
  const s = server;
  server = undefined;
  if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const until = async (what: string, ok: () => boolean | Promise<boolean>, ms = 5_000): Promise<void> => {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`);
    await sleep(25);
  }
};
const receivedWith = (subject: string) => received.filter((m) => m.subject === subject);

interface Row {
  id: number;
  to_address: string;
  subject: string;
  transport: string;
  sent_at: Date | null;
  attempts: number;
  next_attempt_at: Date | null;
  last_error: string | null;
  text_body: string;
}

let db: Db;
let dbB: Db;
let drop: () => Promise<void>;
const clock = createTestClock(new Date('2030-03-01T09:00:00Z'));
const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
const rows = (subjectLike: string) => db.query<Row>('SELECT * FROM mail_outbox WHERE subject LIKE $1 ORDER BY id', [subjectLike]);
/** Queues `count` mails with the app's own mailer code (what every request does). */
const queue = async (subject: string, count = 1) => {
  const mailer = createMailer({ smtp: true, repo: createMailRepo(db), clock, log });
  for (let i = 0; i < count; i += 1)
    await mailer.send({
      to: `queue${i}@example.com`,
      subject: count === 1 ? subject : `${subject} ${i}`,
      text: `body ${i}`,
      html: '<p>x</p>',
    });
};
const smtpSend = () => createSmtpSend({ smtpUrl, from: 'Writing Service <no-reply@example.com>' });
const handDelivery = (smtp = smtpSend(), on: Db = db): MailDelivery =>
  createMailDelivery({ repo: createMailRepo(on), send: smtp.send, clock, log, intervalMs: 0 });

beforeAll(async () => {
  port = await freePort();
  smtpUrl = `smtp://127.0.0.1:${port}?ignoreTLS=true`;
  const created = await createTestDb();
  if (!created.url) throw new Error('this test needs a PostgreSQL server (TEST_DATABASE_URL)');
  db = created.db;
  drop = created.drop;
  dbB = postgresDb(created.url, { onIdleError: () => undefined });
});
afterAll(async () => {
  await smtpDown();
  await dbB?.close();
  await drop?.();
});

describe('ADR 0074: mail queued in the database, sent when SMTP answers', () => {
  it('SMTP down: the request that mails succeeds at once, its mail queued; back up, the job sends it once', async () => {
    await smtpDown();
    const lines: string[] = [];
    let delivery: MailDelivery | undefined;
    const t: TestApp = await buildTestApp({
      db,
      clock,
      env: { SMTP_URL: smtpUrl, MAIL_FROM: 'Writing Service <no-reply@example.com>', MAIL_SEND_INTERVAL_SECONDS: '0.1', LOG_LEVEL: 'info' },
      logStream: { write: (line) => void lines.push(line) },
      onMailReady: (d) => (delivery = d),
    });
    try {
      expect(delivery).toBeDefined();
      await insertCustomer(t, 'queue.link@example.com');
      const started = Date.now();
      const res = await t.app.inject({ method: 'POST', url: '/api/magic_link', payload: { email: 'queue.link@example.com' } });
      expect(res.statusCode).toBe(200);
      expect(Date.now() - started).toBeLessThan(2_000);
      const [row] = await db.query<Row>(`SELECT * FROM mail_outbox WHERE to_address = 'queue.link@example.com'`);
      expect(row).toMatchObject({ transport: 'smtp', sent_at: null });
      // The job was woken and tried: refused, it stays queued for 30 s.
      await until('the first attempt', async () => ((await rows(row?.subject ?? ''))[0]?.last_error ?? null) !== null);
      const [tried] = await rows(row?.subject ?? '');
      expect(tried).toMatchObject({ attempts: 1, sent_at: null });
      expect(tried?.last_error).toMatch(/ECONNREFUSED/);
      expect(tried?.next_attempt_at?.getTime()).toBe(clock.now().getTime() + mailRetryDelayMs(1));
      expect(received.filter((m) => m.to === 'queue.link@example.com')).toHaveLength(0);

      await smtpUp();
      await sleep(300);
      expect(received.filter((m) => m.to === 'queue.link@example.com')).toHaveLength(0);
      clock.advance(mailRetryDelayMs(1));
      await until('the mail delivered', () => received.some((m) => m.to === 'queue.link@example.com'));
      clock.advance(60 * 60_000);
      await sleep(500);
      expect(received.filter((m) => m.to === 'queue.link@example.com')).toHaveLength(1);
      expect(received.find((m) => m.to === 'queue.link@example.com')?.raw).toMatch(/magicLink=/);
      const [sent] = await rows(row?.subject ?? '');
      expect(sent).toMatchObject({ attempts: 2, last_error: null, text_body: '' });
      expect(sent?.sent_at).not.toBeNull();
      // The log names the mail, never its link.
      expect(lines.some((l) => l.includes('mail not sent') && l.includes('queue.link@example.com'))).toBe(true);
      expect(lines.filter((l) => /magicLink|magic_link\/[A-Za-z0-9_-]{20}/.test(l))).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('tries again after 30 s, 1 min, 2 min … while SMTP is away, then sends once', async () => {
    await smtpDown();
    await queue('Backoff');
    const delivery = handDelivery();
    const attempt = async () => (await rows('Backoff'))[0];
    const delays: number[] = [];
    for (let i = 1; i <= 4; i += 1) {
      const before = clock.now().getTime();
      expect(await delivery.runOnce()).toBe(0);
      const row = await attempt();
      expect(row?.attempts).toBe(i);
      delays.push((row?.next_attempt_at?.getTime() ?? 0) - before);
      // Not due before its time: a run a moment early changes nothing.
      clock.advance((delays[i - 1] ?? 0) - 1000);
      expect(await delivery.runOnce()).toBe(0);
      expect((await attempt())?.attempts).toBe(i);
      clock.advance(1000);
    }
    expect(delays).toEqual([30_000, 60_000, 120_000, 240_000]);
    expect([5, 6, 7, 20].map(mailRetryDelayMs)).toEqual([480_000, 600_000, 600_000, 600_000]);

    await smtpUp();
    expect(await delivery.runOnce()).toBe(1);
    expect(await delivery.runOnce()).toBe(0);
    clock.advance(24 * 60 * 60_000);
    expect(await delivery.runOnce()).toBe(0);
    expect(receivedWith('Backoff')).toHaveLength(1);
    expect((await attempt())?.attempts).toBe(5);
  });

  it('two instances sending at once send every mail exactly once', async () => {
    await smtpUp();
    acceptDelayMs = 20;
    let a: MailDelivery | undefined;
    let b: MailDelivery | undefined;
    const env = { SMTP_URL: smtpUrl, MAIL_FROM: 'Writing Service <no-reply@example.com>' };
    const appA = await buildTestApp({ db, clock, env, onMailReady: (d) => (a = d) });
    const appB = await buildTestApp({ db: dbB, clock, env, onMailReady: (d) => (b = d) });
    try {
      if (!a || !b) throw new Error('no delivery job');
      await queue('Pair', 30);
      const counts = await Promise.all([a.runOnce(), b.runOnce()]);
      const sentCount = counts.reduce((sum, n) => sum + n, 0);
      expect(sentCount).toBe(30);
      const subjects = received.filter((m) => m.subject.startsWith('Pair ')).map((m) => m.subject);
      expect(subjects).toHaveLength(30);
      expect(new Set(subjects).size).toBe(30);
      // Both took part (each claimed mails), and every row was attempted once and is sent.
      expect(counts.every((n) => n > 0)).toBe(true);
      const pair = await rows('Pair %');
      expect(pair.map((r) => [r.attempts, r.sent_at !== null])).toEqual(pair.map(() => [1, true]));
    } finally {
      acceptDelayMs = 0;
      await Promise.all([appA.close(), appB.close()]);
    }
  });

  it('a restart in the middle of the queue resumes it: every mail once', async () => {
    await smtpUp();
    acceptDelayMs = 150;
    const env = { SMTP_URL: smtpUrl, MAIL_FROM: 'Writing Service <no-reply@example.com>' };
    let first: MailDelivery | undefined;
    const before = await buildTestApp({ db, clock, env, onMailReady: (d) => (first = d) });
    await queue('Restart', 8);
    const running = first?.runOnce();
    await until('two sent', () => receivedWith('Restart 0').length + receivedWith('Restart 1').length === 2);
    // The instance stops: the mail in hand is finished and marked, the rest stay queued.
    await before.close();
    await running;
    const sentBefore = received.filter((m) => m.subject.startsWith('Restart ')).length;
    expect(sentBefore).toBeGreaterThanOrEqual(2);
    expect(sentBefore).toBeLessThan(8);
    let second: MailDelivery | undefined;
    const after = await buildTestApp({ db: dbB, clock, env, onMailReady: (d) => (second = d) });
    try {
      expect(await second?.runOnce()).toBe(8 - sentBefore);
      const subjects = received.filter((m) => m.subject.startsWith('Restart ')).map((m) => m.subject);
      expect(subjects.sort()).toEqual(Array.from({ length: 8 }, (_, i) => `Restart ${i}`).sort());
    } finally {
      acceptDelayMs = 0;
      await after.close();
    }
  });

  it('a mail claimed by an instance that died is sent by another after the lease, once', async () => {
    await smtpUp();
    await queue('Orphan');
    // An instance claimed it and died before sending (its lease runs).
    const claimed = await createMailRepo(db).claimDue({ now: clock.now(), leaseUntil: new Date(clock.now().getTime() + CLAIM_LEASE_MS) });
    expect(claimed?.subject).toBe('Orphan');
    const other = handDelivery(smtpSend(), dbB);
    expect(await other.runOnce()).toBe(0);
    clock.advance(CLAIM_LEASE_MS);
    expect(await other.runOnce()).toBe(1);
    expect(await other.runOnce()).toBe(0);
    expect(receivedWith('Orphan')).toHaveLength(1);
    expect((await rows('Orphan'))[0]).toMatchObject({ attempts: 2 });
  });
});
