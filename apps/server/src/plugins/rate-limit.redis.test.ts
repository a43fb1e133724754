import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_RATE_LIMIT_PER_MINUTE } from '@app/domain';
import { buildTestApp, type TestApp } from '../testing/build-test-app';

// DESIGN rule 7: with REDIS_URL the counters live in Redis, so two instances share one budget.
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

let a: TestApp;
let b: TestApp;
// Redis outlives a test run: every run picks addresses and emails no earlier run used.
const runId = `${Date.now().toString(36)}${randomInt(1e6)}`;
const ipFor = (n: number): string => `172.${16 + (n % 16)}.${randomInt(256)}.${randomInt(256)}`;

beforeAll(async () => {
  [a, b] = await Promise.all([buildTestApp({ env: { REDIS_URL } }), buildTestApp({ env: { REDIS_URL } })]);
});
afterAll(async () => {
  await Promise.all([a?.close(), b?.close()]);
});

const checkmail = (t: TestApp, ip: string, email: string) =>
  t.app.inject({ method: 'POST', url: '/api/checkmail', remoteAddress: ip, payload: { email } });

describe('rate limits across two instances sharing Redis', () => {
  it('counts requests from one address on both instances: 5 + 5 pass, the 11th on either is 429', async () => {
    const ip = ipFor(1);
    for (let i = 0; i < AUTH_RATE_LIMIT_PER_MINUTE / 2; i++) {
      expect((await checkmail(a, ip, `ip-${runId}-a${i}@example.com`)).statusCode).toBe(200);
      expect((await checkmail(b, ip, `ip-${runId}-b${i}@example.com`)).statusCode).toBe(200);
    }
    const onA = await checkmail(a, ip, `ip-${runId}-a-last@example.com`);
    const onB = await checkmail(b, ip, `ip-${runId}-b-last@example.com`);
    expect(onA.statusCode).toBe(429);
    expect(onB.statusCode).toBe(429);
    expect(Number(onB.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('counts one email on both instances whatever the address', async () => {
    const email = `email-${runId}@example.com`;
    for (let i = 0; i < AUTH_RATE_LIMIT_PER_MINUTE / 2; i++) {
      expect((await checkmail(a, ipFor(100 + i), email)).statusCode).toBe(200);
      expect((await checkmail(b, ipFor(200 + i), email)).statusCode).toBe(200);
    }
    expect((await checkmail(b, ipFor(300), email)).statusCode).toBe(429);
  });
});
