import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_FOLD_MS, ORDER_STATUS, ROLE } from '@app/domain';
import { postgresDb, type Db } from '../../db/client';
import { createAccessTokens } from '../../lib/jwt';
import { buildTestApp, createTestClock, createTestDb, type TestApp } from '../../testing/build-test-app';
import { insertOrder } from '../../testing/factories';
import { freePort } from '../../testing/throwaway-servers';
import type { MailDelivery } from '../mail';
import { NOTIFICATION_MAIL_LEASE_MS } from './notifications.jobs';
import { createNotificationsRepo } from './notifications.repo';
import type { NotificationJobs } from './index';

/**
 * ADR 0088 "exactly once under two instances and a restart in the middle of sending": two app instances on
 * one PostgreSQL database and one Redis (the chat bus that carries the bell's wake-ups), a real SMTP server
 * (smtp-server) on a port of this test. Many orders, each a burst of events (payment received with its
 * receipt, then a writer assigned), made through the staff routes of both instances; both instances run the
 * notifications job at once: one mail per order (the burst folded), each event mailed once. Then an instance
 * stops in the middle of its run (its pool ends while it holds a claimed group) and another carries on:
 * after the lease every mail is made once, none twice, none lost; and the SMTP server refusing some mails
 * once only delays them (ADR 0074's retry).
 */
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/test';
const REDIS_URL = process.env.REDIS_URL ?? process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const PREFIX = `notifications-jobs-test:${randomBytes(6).toString('hex')}:`;

interface Received {
  to: string;
  subject: string;
}
const received: Received[] = [];
/** The SMTP server refuses (451, try again later) the n-th mail it is given, once each. */
const refuseNth = new Set<number>();
let given = 0;
let server: SMTPServer;
let smtpUrl: string;

let drop: () => Promise<void>;
let url: string;
let db: Db;
let filesDir: string;
const clock = createTestClock(new Date('2030-04-01T09:00:00Z'));
const D = 24 * 3_600_000;
const pools: Db[] = [];
const apps: TestApp[] = [];
const pool = (): Db => {
  const p = postgresDb(url, { onIdleError: () => undefined });
  pools.push(p);
  return p;
};

/** One instance: its own pool, Redis, SMTP; its notifications job and mail delivery job to run by hand. */
const instance = async (on: Db) => {
  let jobs: NotificationJobs | undefined;
  let delivery: MailDelivery | undefined;
  const t = await buildTestApp({
    db: on,
    clock,
    env: {
      SMTP_URL: smtpUrl,
      MAIL_FROM: 'Writing Service <no-reply@example.com>',
      REDIS_URL,
      CHAT_REDIS_PREFIX: PREFIX,
      FILES_DIR: filesDir,
    },
    onNotificationJobs: (j) => (jobs = j),
    onMailReady: (d) => (delivery = d),
  });
  apps.push(t);
  if (!jobs || !delivery) throw new Error('no notifications job or mail delivery');
  return { t, jobs, delivery };
};
type Instance = Awaited<ReturnType<typeof instance>>;

let a: Instance;
let b: Instance;
let supportId: number;
let writerId: number;
let staffAuth: (userId: number, role: number) => Promise<{ authorization: string }>;

const addUser = async (role: number, email: string): Promise<number> => {
  const [row] = await db.query<{ id: number }>(
    `INSERT INTO users (role, email, password_hash, status_id, first_name) VALUES ($1, $2, 'x', 1, 'Ann') RETURNING id`,
    [role, email],
  );
  if (!row) throw new Error('no user');
  return row.id;
};

/**
 * `count` customers, each with one unpaid order that support marks paid (a receipt) and then gives a writer,
 * the two requests through alternate instances: two events of one order within the fold window.
 */
const burst = async (tag: string, count: number) => {
  const customers: { id: number; email: string; orderId: number }[] = [];
  for (let i = 0; i < count; i += 1) {
    const email = `jobs.${tag}.${i}@example.com`;
    const id = await addUser(ROLE.customer, email);
    const { id: orderId } = await insertOrder(db, {
      customerId: id,
      status: ORDER_STATUS.unpaid,
      title: `Essay ${tag} ${i}`,
      createdAt: clock.now(),
      deadline: new Date(clock.now().getTime() + 10 * D),
    });
    customers.push({ id, email, orderId });
  }
  for (const [i, c] of customers.entries()) {
    const [first, second] = i % 2 === 0 ? [a, b] : [b, a];
    const paid = await first.t.app.inject({
      method: 'POST',
      url: `/api/staff/orders/${c.orderId}/payments`,
      headers: await staffAuth(supportId, ROLE.support),
      payload: { reference: `BANK-${tag}-${i}` },
    });
    expect(paid.statusCode).toBe(200);
    const assigned = await second.t.app.inject({
      method: 'PUT',
      url: `/api/staff/orders/${c.orderId}/writer`,
      headers: await staffAuth(supportId, ROLE.support),
      payload: { idWriter: writerId },
    });
    expect(assigned.statusCode).toBe(200);
  }
  return customers;
};

interface OutboxRow {
  to_address: string;
  subject: string;
  transport: string;
  attachments: unknown[];
}
const outboxOf = (emails: string[]) =>
  db.query<OutboxRow>(
    `SELECT to_address, subject, transport, attachments FROM mail_outbox WHERE to_address = ANY($1::text[]) ORDER BY id`,
    [emails],
  );
const statesOf = (userIds: number[]) =>
  db.query<{ user_id: number; type: string; mail_state: string }>(
    `SELECT user_id, type, mail_state FROM notifications WHERE user_id = ANY($1::int[]) ORDER BY id`,
    [userIds],
  );
/** Each address's count among `list`. */
const tally = (list: string[]) => list.reduce((m, to) => m.set(to, (m.get(to) ?? 0) + 1), new Map<string, number>());

beforeAll(async () => {
  const port = await freePort();
  smtpUrl = `smtp://127.0.0.1:${port}?ignoreTLS=true`;
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    size: 10 * 1024 * 1024,
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        given += 1;
        if (refuseNth.delete(given)) {
          const refused = Object.assign(new Error('try again later'), { responseCode: 451 });
          callback(refused);
          return;
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({
          to: /^To: (.*)$/im.exec(raw)?.[1]?.trim() ?? '',
          subject: /^Subject: (.*)$/im.exec(raw)?.[1]?.trim() ?? '',
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  filesDir = await mkdtemp(path.join(tmpdir(), 'notify-jobs-files-'));
  const created = await createTestDb();
  if (!created.url) throw new Error('this test needs a PostgreSQL server (TEST_DATABASE_URL)');
  db = created.db;
  drop = created.drop;
  url = created.url;
  a = await instance(pool());
  b = await instance(pool());
  const tokens = createAccessTokens(a.t.config.jwtSecret ?? '', clock);
  staffAuth = async (userId, role) => ({ authorization: `Bearer ${await tokens.sign({ userId, role })}` });
  supportId = await addUser(ROLE.support, 'jobs.support@example.com');
  writerId = await addUser(ROLE.writer, 'jobs.writer@example.com');
});
afterAll(async () => {
  for (const t of apps) await t.app.close().catch(() => undefined);
  for (const p of pools) await p.close().catch(() => undefined);
  await drop?.();
  await new Promise<void>((resolve) => server?.close(() => resolve()));
  if (filesDir) await rm(filesDir, { recursive: true, force: true });
});

describe('ADR 0088: the notifications job on two instances, and a restart in the middle of sending', () => {
  it('two instances running the job at once over 50 orders: one mail per order (its burst folded), every event mailed once; SMTP refusals only delay', async () => {
    const customers = await burst('pair', 50);
    const emails = customers.map((c) => c.email);
    const ids = customers.map((c) => c.id);
    expect((await statesOf(ids)).map((r) => r.mail_state)).toEqual(customers.flatMap(() => ['pending', 'pending']));
    // Nothing is mailed before the fold window ends.
    expect((await Promise.all([a.jobs.runOnce(), b.jobs.runOnce()])).map((r) => r.mails)).toEqual([0, 0]);

    clock.advance(NOTIFICATION_FOLD_MS + 1000);
    const runs = await Promise.all([a.jobs.runOnce(), b.jobs.runOnce(), a.jobs.runOnce(), b.jobs.runOnce()]);
    expect(runs.reduce((sum, r) => sum + r.mails, 0)).toBe(50);
    // Both instances took part.
    expect(runs[0].mails + runs[2].mails).toBeGreaterThan(0);
    expect(runs[1].mails + runs[3].mails).toBeGreaterThan(0);
    expect((await Promise.all([a.jobs.runOnce(), b.jobs.runOnce()])).map((r) => r.mails)).toEqual([0, 0]);

    const queued = await outboxOf(emails);
    // One mail per order, never two: the burst (payment, writer) is one mail, with the receipt.
    expect([...tally(queued.map((m) => m.to_address)).values()]).toEqual(emails.map(() => 1));
    expect(queued).toHaveLength(50);
    for (const m of queued) {
      expect(m.transport).toBe('smtp');
      expect(m.subject).toMatch(/^Order #\d+: Payment received, Writer assigned$/);
      expect(m.attachments).toHaveLength(1);
    }
    expect((await statesOf(ids)).every((r) => r.mail_state === 'mailed')).toBe(true);

    // The SMTP side: both delivery jobs at once, the server refusing the 7th and 23rd mail once (a run that
    // meets a refusal stops; the refused mail waits for its retry, ADR 0074).
    given = 0;
    refuseNth.add(7).add(23);
    let sent = 0;
    for (let round = 0; round < 12; round += 1) {
      sent += (await Promise.all([a.delivery.runOnce(), b.delivery.runOnce()])).reduce((sum, n) => sum + n, 0);
      clock.advance(10 * 60_000);
    }
    expect(sent).toBe(50);
    expect(given).toBe(52);
    const attempts = await db.query<{ attempts: number; sent: boolean }>(
      'SELECT attempts, sent_at IS NOT NULL AS sent FROM mail_outbox WHERE to_address = ANY($1::text[])',
      [emails],
    );
    expect(attempts.every((r) => r.sent)).toBe(true);
    expect(attempts.filter((r) => r.attempts === 2)).toHaveLength(2);
    expect(attempts.filter((r) => r.attempts === 1)).toHaveLength(48);
    const got = received.filter((m) => emails.includes(m.to));
    expect([...tally(got.map((m) => m.to)).values()]).toEqual(emails.map(() => 1));
    expect(new Set(got.map((m) => m.to))).toEqual(new Set(emails));
    expect(got).toHaveLength(50);
  });

  it('an instance stopped in the middle of its run: the group it held waits for its lease, then another instance mails it; every mail once', async () => {
    const customers = await burst('restart', 24);
    const emails = customers.map((c) => c.email);
    const ids = customers.map((c) => c.id);
    clock.advance(NOTIFICATION_FOLD_MS + 1000);

    // A third instance, on its own pool, starts the run and is stopped (its pool ends) once a few mails are made.
    const doomedPool = pool();
    const doomed = await instance(doomedPool);
    const running = doomed.jobs.runOnce().then(
      () => 'finished',
      () => 'stopped',
    );
    // Stopped while it holds a group: claimed (leased), not yet mailed (rendering takes the longest part of a group).
    const midRun = async () => {
      const [row] = await db.query<{ made: number; held: number }>(
        `SELECT (SELECT count(*)::int FROM mail_outbox WHERE to_address = ANY($1::text[])) AS made,
                (SELECT count(*)::int FROM notifications WHERE user_id = ANY($2::int[]) AND mail_state = 'pending' AND mail_claimed_until > $3) AS held`,
        [emails, ids, clock.now()],
      );
      return (row?.made ?? 0) >= 3 && (row?.held ?? 0) > 0;
    };
    const deadline = Date.now() + 30_000;
    while (!(await midRun())) {
      if (Date.now() > deadline) throw new Error('the run made no 3 mails within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await doomedPool.close();
    expect(await running).toBe('stopped');
    await doomed.t.app.close().catch(() => undefined);

    const before = (await outboxOf(emails)).length;
    expect(before).toBeGreaterThanOrEqual(3);
    expect(before).toBeLessThan(24);
    // What it held when it stopped: claimed, not mailed.
    const heldNow = async (): Promise<number> => {
      const [{ held: count = 0 } = {}] = await db.query<{ held: number }>(
        `SELECT count(DISTINCT user_id)::int AS held FROM notifications
          WHERE user_id = ANY($1::int[]) AND mail_state = 'pending' AND mail_claimed_until > $2`,
        [ids, clock.now()],
      );
      return count;
    };
    // The pool's end lets a transaction under way finish: a stop that came as the held group was being
    // settled leaves none held. A run that dies right after its claim leaves one: the same is left here then,
    // through the job's own claim, so that the lease below is always what brings it back.
    if ((await heldNow()) === 0) {
      await db.transaction((tx) =>
        createNotificationsRepo(tx).claimDueGroup({
          now: clock.now(),
          leaseUntil: new Date(clock.now().getTime() + NOTIFICATION_MAIL_LEASE_MS),
        }),
      );
    }
    const held = await heldNow();
    expect(held).toBeGreaterThanOrEqual(1);

    // The other instances carry on at once: every group but the held ones.
    const now = await Promise.all([a.jobs.runOnce(), b.jobs.runOnce()]);
    expect(now[0].mails + now[1].mails).toBe(24 - before - held);
    // After the lease the held ones too, once.
    clock.advance(NOTIFICATION_MAIL_LEASE_MS + 1000);
    const later = await Promise.all([a.jobs.runOnce(), b.jobs.runOnce()]);
    expect(later[0].mails + later[1].mails).toBe(held);
    clock.advance(NOTIFICATION_MAIL_LEASE_MS);
    expect((await Promise.all([a.jobs.runOnce(), b.jobs.runOnce()])).map((r) => r.mails)).toEqual([0, 0]);

    const queued = await outboxOf(emails);
    expect(queued).toHaveLength(24);
    expect(new Set(queued.map((m) => m.to_address))).toEqual(new Set(emails));
    expect((await statesOf(ids)).every((r) => r.mail_state === 'mailed')).toBe(true);

    // And sent: each once.
    const sent = await Promise.all([a.delivery.runOnce(), b.delivery.runOnce()]);
    expect(sent[0] + sent[1]).toBe(24);
    const got = received.filter((m) => emails.includes(m.to)).map((m) => m.to);
    expect(got).toHaveLength(24);
    expect(new Set(got)).toEqual(new Set(emails));
  });
});
