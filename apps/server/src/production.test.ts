import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_RATE_LIMIT_PER_MINUTE } from '@app/domain';
import { loadConfig } from './config';
import { clientBucket, isLoopback } from './plugins/client-ip';
import { buildTestApp, type TestApp } from './testing/build-test-app';

/** Proxies, production defaults (ADR 0032, 0033). */

const PRODUCTION = { NODE_ENV: 'production', PUBLIC_ORIGIN: 'https://writing.example.com' };
const email = (tag: string) => `${tag}-${Date.now().toString(36)}${randomInt(1e6)}@example.com`;

describe('configuration', () => {
  it('reads TRUST_PROXY as a hop count or a list of trusted networks, never "every hop"', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,fd00::/8, loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      'fd00::/8',
      'loopback',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY=true would trust every hop/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33' })).toThrow(/TRUST_PROXY must be a hop count/);
    expect(() => loadConfig({ TRUST_PROXY: 'proxy.internal' })).toThrow(/not proxy\.internal/);
  });

  it('refuses to start production without PUBLIC_ORIGIN', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow('Invalid configuration: PUBLIC_ORIGIN is required in production');
    expect(loadConfig(PRODUCTION).publicOrigin).toBe('https://writing.example.com');
  });

  it('turns the API docs on in development and off in production unless API_DOCS says otherwise', () => {
    expect(loadConfig({}).apiDocs).toBe(true);
    expect(loadConfig({ API_DOCS: '0' }).apiDocs).toBe(false);
    expect(loadConfig(PRODUCTION).apiDocs).toBe(false);
    expect(loadConfig({ ...PRODUCTION, API_DOCS: '1' }).apiDocs).toBe(true);
  });
});

describe('client buckets', () => {
  it('are an IPv4 address itself and an IPv6 address its /64', () => {
    expect(clientBucket('198.51.100.7')).toBe('198.51.100.7');
    expect(clientBucket('::ffff:198.51.100.7')).toBe('198.51.100.7');
    expect(clientBucket('2001:db8:1:2::1')).toBe('2001:db8:1:2::/64');
    expect(clientBucket('2001:0db8:0001:0002:ffff:eeee:dddd:cccc')).toBe('2001:db8:1:2::/64');
    expect(clientBucket('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientBucket('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientBucket('64:ff9b::198.51.100.7')).toBe('64:ff9b:0:0::/64');
  });

  it('know the loopback addresses', () => {
    for (const a of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1', '0:0:0:0:0:0:0:1']) expect(isLoopback(a), a).toBe(true);
    for (const a of ['10.0.0.1', '::2', '2001:db8::1', '::ffff:10.0.0.1', undefined, '']) expect(isLoopback(a), String(a)).toBe(false);
  });
});

const checkmail = (t: TestApp, remoteAddress: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/checkmail', remoteAddress, headers, payload: { email: email('bucket') } });

/** Sends the budget of requests, then one more; answers the statuses. */
const exhaust = async (send: (i: number) => ReturnType<typeof checkmail>): Promise<number[]> => {
  const statuses: number[] = [];
  for (let i = 0; i <= AUTH_RATE_LIMIT_PER_MINUTE; i++) statuses.push((await send(i)).statusCode);
  return statuses;
};
const BUDGET_THEN_429 = [...Array<number>(AUTH_RATE_LIMIT_PER_MINUTE).fill(200), 429];

describe('behind one proxy (TRUST_PROXY=1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { TRUST_PROXY: '1' } });
  });
  afterAll(async () => t?.close());

  it('takes the address the proxy saw; a spoofed X-Forwarded-For chain cannot change the bucket', async () => {
    // The load balancer (10.0.0.1) appends the address it saw; the client wrote the entries before it.
    const statuses = await exhaust((i) => checkmail(t, '10.0.0.1', { 'x-forwarded-for': `203.0.113.${i}, 192.0.2.${i}, 198.51.100.7` }));
    expect(statuses).toEqual(BUDGET_THEN_429);
    const ip = await t.app.inject({
      method: 'GET',
      url: '/healthz',
      remoteAddress: '10.0.0.1',
      headers: { 'x-forwarded-for': '1.2.3.4, 198.51.100.8' },
    });
    expect(ip.statusCode).toBe(200);
  });

  it('counts two IPv6 addresses of one /64 in one bucket, and another /64 apart', async () => {
    const statuses = await exhaust((i) =>
      checkmail(t, '10.0.0.1', { 'x-forwarded-for': i % 2 === 0 ? '2001:db8:77:1::1' : `2001:db8:77:1:${(i + 1).toString(16)}::abcd` }),
    );
    expect(statuses).toEqual(BUDGET_THEN_429);
    expect((await checkmail(t, '10.0.0.1', { 'x-forwarded-for': '2001:db8:77:2::1' })).statusCode).toBe(200);
  });

  it('counts IPv6 clients by /64 without a proxy too', async () => {
    const statuses = await exhaust((i) => checkmail(t, i % 2 === 0 ? '2001:db8:78:1::1' : '2001:db8:78:1:8000::2'));
    expect(statuses).toEqual(BUDGET_THEN_429);
  });
});

describe('behind trusted networks (TRUST_PROXY=10.0.0.0/8)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ env: { TRUST_PROXY: '10.0.0.0/8' } });
  });
  afterAll(async () => t?.close());

  it('skips every trusted hop and ignores what an untrusted peer claims', async () => {
    // Two proxies of ours (10.0.0.2 behind 10.0.0.1): the client is the address before them.
    const viaProxies = await exhaust((i) => checkmail(t, '10.0.0.1', { 'x-forwarded-for': `203.0.113.${i}, 198.51.100.9, 10.0.0.2` }));
    expect(viaProxies).toEqual(BUDGET_THEN_429);
    // A client that connects directly is itself, whatever it writes.
    const direct = await exhaust((i) => checkmail(t, '198.51.100.10', { 'x-forwarded-for': `203.0.113.${i}` }));
    expect(direct).toEqual(BUDGET_THEN_429);
  });
});

describe('production', () => {
  let t: TestApp;
  let dev: TestApp;
  beforeAll(async () => {
    [t, dev] = await Promise.all([
      buildTestApp({ env: { ...PRODUCTION, TRUST_PROXY: '1' } }),
      buildTestApp({ env: { NODE_ENV: 'development', TRUST_PROXY: '1' } }),
    ]);
  });
  afterAll(async () => Promise.all([t?.close(), dev?.close()]));

  it('sends HSTS on pages and API answers; development does not', async () => {
    for (const url of ['/api/en/sites/settings', '/api/en/no/such', '/healthz']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.headers['strict-transport-security'], url).toBe('max-age=31536000; includeSubDomains');
      expect((await dev.app.inject({ method: 'GET', url })).headers['strict-transport-security'], url).toBeUndefined();
    }
  });

  it('marks answers with tokens or personal data no-store; public catalogues stay cacheable', async () => {
    const address = email('nostore');
    const signUp = await t.app.inject({
      method: 'POST',
      url: '/api/en/auth/jwt/sign_up',
      payload: {
        phone: '1555123456',
        email: address,
        password: 'secret-pass-1',
        firstName: 'Ada',
        lastName: 'L',
        isEnabledNightCall: false,
        ref_id: null,
        hashDevice: 'd',
      },
    });
    expect(signUp.statusCode).toBe(200);
    expect(signUp.headers['cache-control']).toBe('no-store');
    const { accessToken, refreshToken } = signUp.json<{ accessToken: string; refreshToken: string }>();
    const auth = { authorization: `Bearer ${accessToken}` };
    const answers = {
      signIn: await t.app.inject({
        method: 'POST',
        url: '/api/en/auth/jwt/sign_in',
        payload: { email: address, password: 'secret-pass-1', hashDevice: 'd' },
      }),
      refresh: await t.app.inject({ method: 'PUT', url: '/api/en/auth/jwt/refresh', headers: { authorization: `Bearer ${refreshToken}` } }),
      magicLink: await t.app.inject({ method: 'GET', url: '/api/en/auth/magic_link/unknown-token' }),
      customer: await t.app.inject({ method: 'GET', url: '/api/en/customers/customer', headers: auth }),
      orders: await t.app.inject({ method: 'GET', url: '/api/en/orders', headers: auth }),
      count: await t.app.inject({ method: 'GET', url: '/api/en/orders/count', headers: auth }),
      unauthorised: await t.app.inject({ method: 'GET', url: '/api/en/customers/customer' }),
    };
    for (const [name, res] of Object.entries(answers)) {
      expect(res.statusCode, name).toBeLessThan(500);
      expect(res.headers['cache-control'], name).toBe('no-store');
    }
    expect(answers.customer.statusCode).toBe(200);
    const settings = await t.app.inject({ method: 'GET', url: '/api/en/sites/settings' });
    expect(settings.headers['cache-control']).toBe('public, max-age=60');
  });

  it('serves the API docs only when API_DOCS is on (default on in development, off in production)', async () => {
    for (const url of ['/api/docs', '/api/docs/json']) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(404);
      expect((await dev.app.inject({ method: 'GET', url })).statusCode, url).not.toBe(404);
    }
    const on = await buildTestApp({ env: { ...PRODUCTION, API_DOCS: '1' } });
    try {
      expect((await on.app.inject({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(200);
    } finally {
      await on.close();
    }
  });

  it('has no dev outbox in production, and in development answers it only to loopback peers', async () => {
    const outbox = (app: TestApp, remoteAddress: string, headers: Record<string, string> = {}) =>
      app.app.inject({ method: 'GET', url: '/api/dev/outbox?to=demo@example.com', remoteAddress, headers });
    expect((await outbox(t, '127.0.0.1')).statusCode).toBe(404);
    expect((await outbox(dev, '127.0.0.1')).statusCode).toBe(200);
    expect((await outbox(dev, '::1')).statusCode).toBe(200);
    const remote = await outbox(dev, '203.0.113.5');
    expect(remote.statusCode).toBe(404);
    expect(remote.json()).toEqual({ message: 'Not found' });
    // A proxy forwarding for a client that claims to be loopback is still not loopback.
    expect((await outbox(dev, '10.0.0.1', { 'x-forwarded-for': '127.0.0.1' })).statusCode).toBe(404);
  });
});
