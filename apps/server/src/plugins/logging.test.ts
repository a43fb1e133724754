import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../testing/build-test-app';

/**
 * Tokens never reach a log line (CONTRACT "Identity"; ADR 0039). The app logs
 * through pino; the test taps pino's destination stream and reads every line written.
 */
interface Writable {
  write(chunk: string): unknown;
}

const pinoStreamOf = (logger: object): Writable => {
  for (let o: object | null = logger; o; o = Object.getPrototypeOf(o) as object | null) {
    const symbol = Object.getOwnPropertySymbols(o).find((s) => s.description === 'pino.stream');
    if (symbol) return (o as Record<symbol, Writable>)[symbol] as Writable;
  }
  throw new Error('pino destination not found');
};

let t: TestApp;
const lines: string[] = [];

beforeAll(async () => {
  // development: request logging on, at info level, like `npm start`.
  t = await buildTestApp({ env: { NODE_ENV: 'development', LOG_LEVEL: 'info' } });
  const stream = pinoStreamOf(t.app.log);
  stream.write = (chunk: string) => {
    lines.push(String(chunk));
    return true;
  };
});
afterAll(async () => {
  await t.close();
});

describe('logs', () => {
  it('hold neither the access token nor the refresh token of a session', async () => {
    const email = `logs-${Date.now().toString(36)}@example.com`;
    const signUp = await t.app.inject({
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
    const { accessToken, refreshToken } = signUp.json<{ accessToken: string; refreshToken: string }>();

    await t.app.inject({ method: 'GET', url: '/api/en/customers/customer', headers: { authorization: `Bearer ${accessToken}` } });
    // The chat socket carries the access token in its query string.
    await t.app.inject({ method: 'GET', url: `/chat/customers/orders/messages?accessToken=${accessToken}` });
    const refreshed = await t.app.inject({
      method: 'PUT',
      url: '/api/en/auth/jwt/refresh',
      headers: { authorization: `Bearer ${refreshToken}` },
    });
    // Reuse of the rotated token after its child was used (ADR 0061): logged as a warning, without the token.
    const child = refreshed.json<{ refreshToken: string }>().refreshToken;
    await t.app.inject({ method: 'PUT', url: '/api/en/auth/jwt/refresh', headers: { authorization: `Bearer ${child}` } });
    await t.app.inject({ method: 'PUT', url: '/api/en/auth/jwt/refresh', headers: { authorization: `Bearer ${refreshToken}` } });
    await t.app.inject({
      method: 'POST',
      url: '/api/en/auth/jwt/sign_in',
      payload: { email, password: 'secret-pass-1', hashDevice: 'd' },
      remoteAddress: '10.7.0.1',
    });

    const log = lines.join('');
    // The tap works: the requests above are in it.
    expect(log).toContain('/api/en/customers/customer');
    expect(log).toContain('accessToken=[redacted]');
    expect(log).toContain('refresh token reuse detected');

    expect(log).not.toContain(accessToken);
    expect(log).not.toContain(refreshToken);
    expect(log).not.toContain(refreshed.json<{ accessToken: string }>().accessToken);
    expect(log).not.toContain(child);
    expect(log).not.toContain('secret-pass-1');
    expect(log).not.toContain('$argon2');
  });
});
