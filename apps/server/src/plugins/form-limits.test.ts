import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_RATE_LIMIT_PER_MINUTE } from '@app/domain';
import { buildTestApp, type TestApp } from '../testing/build-test-app';

/**
 * ADR 0039, bodies before limits: the public form routes (checkmail, magic link, forgot password,
 * discount apply) count the request against the per-IP limit before reading its body, and take text
 * fields only: a file part is refused when it starts, not read to its end.
 */
let t: TestApp;
let seq = 0;
const nextIp = (): string => `10.9.${Math.floor(++seq / 250)}.${seq % 250}`;
const FIVE_MB = 5 * 1024 * 1024;

/** A 5 MB multipart body (a text field, then a file) that counts how many bytes the server pulled. */
const bigMultipart = (field: string, value: string) => {
  const boundary = `----limits${++seq}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"\r\n\r\n${value}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  let sent = 0;
  const counter = { pulled: 0 };
  const stream = new Readable({
    highWaterMark: 64 * 1024,
    read() {
      let next: Buffer | null;
      if (sent === 0) next = head;
      else if (sent < FIVE_MB) next = chunk;
      else if (sent < FIVE_MB + tail.length) next = tail;
      else next = null;
      if (next) {
        sent += next === head ? 1 : next.length;
        counter.pulled += next.length;
      }
      this.push(next);
    },
  });
  return { payload: stream, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, counter };
};

const routes = [
  { name: 'checkmail', url: '/api/checkmail', field: 'email' },
  { name: 'magic link', url: '/api/magic_link', field: 'email' },
  { name: 'forgot password', url: '/forgotpassword', field: 'mail' },
  { name: 'discount apply', url: '/api/en/orders/discounts/apply', field: 'code' },
];

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('public form routes: limit first, fields only', () => {
  for (const route of routes) {
    it(`${route.name}: past the limit, a 5 MB multipart answers 429 without its body being read`, async () => {
      const ip = nextIp();
      for (let i = 0; i < AUTH_RATE_LIMIT_PER_MINUTE; i += 1) {
        await t.app.inject({
          method: 'POST',
          url: route.url,
          remoteAddress: ip,
          payload: { [route.field]: `limits-${++seq}@example.com` },
        });
      }
      const body = bigMultipart(route.field, `limits-${++seq}@example.com`);
      const res = await t.app.inject({ method: 'POST', url: route.url, remoteAddress: ip, payload: body.payload, headers: body.headers });
      expect(res.statusCode).toBe(429);
      expect(res.headers['retry-after']).toBeDefined();
      expect(body.counter.pulled).toBeLessThan(FIVE_MB / 4);
    });

    it(`${route.name}: a file part is refused with 413 before it is read`, async () => {
      const body = bigMultipart(route.field, `limits-${++seq}@example.com`);
      const res = await t.app.inject({
        method: 'POST',
        url: route.url,
        remoteAddress: nextIp(),
        payload: body.payload,
        headers: body.headers,
      });
      expect(res.statusCode).toBe(413);
      expect(res.json<{ message: string }>().message).toBe('This form takes text fields only, no files');
      expect(body.counter.pulled).toBeLessThan(FIVE_MB / 4);
    });
  }
});
