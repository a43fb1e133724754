import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';
import { createSmtpSend } from './mail.smtp';

interface Received {
  from: string;
  to: string[];
  raw: string;
}

/** A real SMTP server in this process (CONTRACT "Identity": mail goes through SMTP when SMTP_URL is set). */
const received: Received[] = [];
const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('end', () => {
      received.push({
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
        to: session.envelope.rcptTo.map((r) => r.address),
        raw: Buffer.concat(chunks).toString('utf8'),
      });
      callback();
    });
  },
});

/** The text of a MIME message with quoted-printable parts decoded (enough to find a link). */
const decoded = (raw: string): string =>
  raw
    .split(/\r?\n(?=--)/)
    .map((part) =>
      /content-transfer-encoding:\s*quoted-printable/i.test(part)
        ? part.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)))
        : part,
    )
    .join('\n');

const waitForMailTo = async (address: string): Promise<Received> => {
  for (let i = 0; i < 100; i++) {
    const mail = received.find((m) => m.to.includes(address));
    if (mail) return mail;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`no mail to ${address}`);
};

let smtpUrl: string;
let t: TestApp;

beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  smtpUrl = `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}?ignoreTLS=true`;
  // ADR 0074: the app queues each mail and its delivery job (woken by the mail) sends it.
  t = await buildTestApp({
    env: { SMTP_URL: smtpUrl, MAIL_FROM: 'Writing Service <no-reply@example.com>', MAIL_SEND_INTERVAL_SECONDS: '5' },
  });
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('mail over SMTP', () => {
  it('the SMTP sender delivers a message to the SMTP server', async () => {
    const smtp = createSmtpSend({ smtpUrl, from: 'Test <test@example.com>' });
    try {
      await smtp.send({
        id: 1,
        to: 'direct@example.com',
        subject: 'Hello over SMTP',
        text: 'plain body',
        html: '<p>html body</p>',
        headers: { 'List-Unsubscribe': '<https://example.com/u?token=x>', 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
        attachments: [
          { filename: 'receipt-R-1.pdf', contentType: 'application/pdf', content: Buffer.from('%PDF-1.4 x').toString('base64') },
        ],
        attempts: 1,
        createdAt: new Date(),
      });
    } finally {
      smtp.close();
    }
    const mail = await waitForMailTo('direct@example.com');
    expect(mail.from).toBe('test@example.com');
    expect(mail.raw).toContain('Subject: Hello over SMTP');
    expect(mail.raw).toMatch(/Message-ID: <mail-1\.[0-9a-z]+@example\.com>/i);
    expect(decoded(mail.raw)).toContain('plain body');
    // ADR 0088: the queued headers and attachments reach the SMTP server.
    expect(mail.raw).toContain('List-Unsubscribe: <https://example.com/u?token=x>');
    expect(mail.raw).toContain('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(mail.raw).toMatch(/filename="?receipt-R-1\.pdf/);
  });

  it('a sign-up through the app sends the confirmation link over SMTP, not to the outbox', async () => {
    const email = `smtp-${Date.now().toString(36)}@example.com`;
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/en/auth/jwt/sign_up',
      payload: {
        phone: '1555123456',
        email,
        password: 'secret-pass-1',
        firstName: 'Ada',
        lastName: 'L',
        isEnabledNightCall: false,
        ref_id: null,
        hashDevice: 'd',
      },
    });
    expect(res.statusCode).toBe(200);
    const mail = await waitForMailTo(email);
    expect(mail.from).toBe('no-reply@example.com');
    expect(decoded(mail.raw)).toMatch(/http:\/\/localhost:3000\/profile\?confirmEmail=[\w-]{40,}/);
    const outbox = await t.app.inject({ method: 'GET', url: `/api/dev/outbox?to=${encodeURIComponent(email)}` });
    expect(outbox.json().messages).toEqual([]);
  });
});
