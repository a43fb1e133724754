import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_TTL_SECONDS, REFRESH_TOKEN_TTL_SECONDS } from '@app/domain';
import { hashToken } from '../../lib/tokens';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';

let t: TestApp;
let seq = 0;
const nextIp = (): string => `10.2.${Math.floor(++seq / 250)}.${seq % 250}`;

interface Tokens {
  accessToken: string;
  refreshToken: string;
}

const newAccount = async (): Promise<Tokens & { email: string }> => {
  const email = `tokens-${Date.now().toString(36)}-${++seq}@example.com`;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/en/auth/jwt/sign_up',
    remoteAddress: nextIp(),
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
  return { ...res.json<Tokens>(), email };
};
const refresh = (token: string) =>
  t.app.inject({ method: 'PUT', url: '/api/en/auth/jwt/refresh', headers: { authorization: `Bearer ${token}` } });
const logout = (token: string) =>
  t.app.inject({ method: 'POST', url: '/api/en/auth/jwt/logout', headers: { authorization: `Bearer ${token}` } });
const profile = (accessToken: string) =>
  t.app.inject({ method: 'GET', url: '/api/en/customers/customer', headers: { authorization: `Bearer ${accessToken}` } });

beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('PUT /api/en/auth/jwt/refresh', () => {
  it('answers a new pair and rotates the refresh token', async () => {
    const first = await newAccount();
    const res = await refresh(first.refreshToken);
    expect(res.statusCode).toBe(200);
    const next = res.json<Tokens>();
    expect(next.refreshToken).not.toBe(first.refreshToken);
    expect((await profile(next.accessToken)).statusCode).toBe(200);
    const [row] = await t.db.query<{ rotated_at: Date | null }>('SELECT rotated_at FROM refresh_tokens WHERE token_hash = $1', [
      hashToken(first.refreshToken),
    ]);
    expect(row?.rotated_at).not.toBeNull();
    // The child refreshes in turn.
    expect((await refresh(next.refreshToken)).statusCode).toBe(200);
  });

  it('stores refresh tokens hashed, never as sent', async () => {
    const { refreshToken } = await newAccount();
    expect(await t.db.query('SELECT 1 FROM refresh_tokens WHERE token_hash = $1', [refreshToken])).toHaveLength(0);
    expect(await t.db.query('SELECT 1 FROM refresh_tokens WHERE token_hash = $1', [hashToken(refreshToken)])).toHaveLength(1);
  });

  it('revokes the whole family when an already-rotated token is presented again', async () => {
    const first = await newAccount();
    const second = (await refresh(first.refreshToken)).json<Tokens>();
    const third = (await refresh(second.refreshToken)).json<Tokens>();

    const reuse = await refresh(first.refreshToken);
    expect(reuse.statusCode).toBe(401);
    // The live descendant dies with the family.
    expect((await refresh(third.refreshToken)).statusCode).toBe(401);
    const [family] = await t.db.query<{ live: number }>(
      `SELECT count(*) FILTER (WHERE revoked_at IS NULL) AS live FROM refresh_tokens
       WHERE family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = $1)`,
      [hashToken(first.refreshToken)],
    );
    expect(family?.live).toBe(0);
  });

  it('leaves other sessions of the same account alone when one family is revoked', async () => {
    const a = await newAccount();
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/en/auth/jwt/sign_in',
      remoteAddress: nextIp(),
      payload: { email: a.email, password: 'secret-pass-1', hashDevice: 'd' },
    });
    const next = (await refresh(a.refreshToken)).json<Tokens>();
    expect((await refresh(next.refreshToken)).statusCode).toBe(200);
    expect((await refresh(a.refreshToken)).statusCode).toBe(401);
    expect((await refresh(other.json<Tokens>().refreshToken)).statusCode).toBe(200);
  });

  it('mints exactly one child when one token is refreshed three times at the same time, and answers it to each (ADR 0061)', async () => {
    const { refreshToken } = await newAccount();
    const results = await Promise.all([refresh(refreshToken), refresh(refreshToken), refresh(refreshToken)]);
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const children = new Set(results.map((r) => r.json<Tokens>().refreshToken));
    expect(children.size).toBe(1);
    const [rows] = await t.db.query<{ n: number }>(
      `SELECT count(*) AS n FROM refresh_tokens
       WHERE family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = $1) AND token_hash <> $1`,
      [hashToken(refreshToken)],
    );
    expect(Number(rows?.n)).toBe(1);
  });

  describe('a rotation whose answer was lost (ADR 0061)', () => {
    const liveInFamily = async (token: string): Promise<number> => {
      const [row] = await t.db.query<{ live: number }>(
        `SELECT count(*) FILTER (WHERE revoked_at IS NULL AND rotated_at IS NULL) AS live FROM refresh_tokens
         WHERE family_id = (SELECT family_id FROM refresh_tokens WHERE token_hash = $1)`,
        [hashToken(token)],
      );
      return Number(row?.live);
    };

    it('answers the same child again while the child is unused, and the child works', async () => {
      const { refreshToken } = await newAccount();
      const lost = (await refresh(refreshToken)).json<Tokens>();
      t.clock.advance(20_000);
      try {
        const again = await refresh(refreshToken);
        expect(again.statusCode).toBe(200);
        const pair = again.json<Tokens>();
        expect(pair.refreshToken).toBe(lost.refreshToken);
        expect((await profile(pair.accessToken)).statusCode).toBe(200);
        expect(await liveInFamily(refreshToken)).toBe(1);
        expect((await refresh(pair.refreshToken)).statusCode).toBe(200);
      } finally {
        t.clock.advance(-20_000);
      }
    });

    it('revokes the family when the token comes back after its child was used', async () => {
      const { refreshToken } = await newAccount();
      const child = (await refresh(refreshToken)).json<Tokens>();
      const grandchild = (await refresh(child.refreshToken)).json<Tokens>();
      expect((await refresh(refreshToken)).statusCode).toBe(401);
      expect((await refresh(grandchild.refreshToken)).statusCode).toBe(401);
      expect(await liveInFamily(refreshToken)).toBe(0);
    });

    it('revokes the family when the token comes back more than 30 seconds after its rotation', async () => {
      const { refreshToken } = await newAccount();
      const child = (await refresh(refreshToken)).json<Tokens>();
      t.clock.advance(31_000);
      try {
        expect((await refresh(refreshToken)).statusCode).toBe(401);
        expect((await refresh(child.refreshToken)).statusCode).toBe(401);
      } finally {
        t.clock.advance(-31_000);
      }
    });

    it('answers 401 after a logout, inside the 30 seconds too', async () => {
      const { refreshToken } = await newAccount();
      const child = (await refresh(refreshToken)).json<Tokens>();
      expect((await logout(child.refreshToken)).statusCode).toBeLessThan(300);
      expect((await refresh(refreshToken)).statusCode).toBe(401);
    });
  });

  it('answers 401 for an unknown token and for a missing bearer', async () => {
    expect((await refresh('not-a-token')).statusCode).toBe(401);
    const missing = await t.app.inject({ method: 'PUT', url: '/api/en/auth/jwt/refresh' });
    expect(missing.statusCode).toBe(401);
  });

  it('refuses an access token presented as the refresh token', async () => {
    const { accessToken } = await newAccount();
    expect((await refresh(accessToken)).statusCode).toBe(401);
  });

  it('refuses a refresh token presented as the access token', async () => {
    const { refreshToken } = await newAccount();
    expect((await profile(refreshToken)).statusCode).toBe(401);
  });

  it('answers 401 for a refresh token older than 30 days', async () => {
    const { refreshToken } = await newAccount();
    t.clock.advance(REFRESH_TOKEN_TTL_SECONDS * 1000 + 1000);
    try {
      expect((await refresh(refreshToken)).statusCode).toBe(401);
    } finally {
      t.clock.advance(-(REFRESH_TOKEN_TTL_SECONDS * 1000 + 1000));
    }
  });
});

describe('access token lifetime', () => {
  it('answers 401 once the access token is older than 15 minutes, and the refresh gives a working one', async () => {
    const { accessToken, refreshToken } = await newAccount();
    expect((await profile(accessToken)).statusCode).toBe(200);
    t.clock.advance(16 * 60 * 1000);
    expect(ACCESS_TOKEN_TTL_SECONDS).toBeLessThan(16 * 60);
    const expired = await profile(accessToken);
    expect(expired.statusCode).toBe(401);
    const renewed = await refresh(refreshToken);
    expect(renewed.statusCode).toBe(200);
    expect((await profile(renewed.json<Tokens>().accessToken)).statusCode).toBe(200);
  });

  it('answers 401 for a forged signature', async () => {
    const { accessToken } = await newAccount();
    const [header, payload] = accessToken.split('.');
    expect((await profile(`${header}.${payload}.AAAA`)).statusCode).toBe(401);
  });
});

describe('POST /api/en/auth/jwt/logout', () => {
  it('revokes the refresh token and is idempotent', async () => {
    const { refreshToken } = await newAccount();
    const first = await logout(refreshToken);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({});
    expect((await logout(refreshToken)).statusCode).toBe(200);
    expect((await refresh(refreshToken)).statusCode).toBe(401);
  });

  it('answers 200 for an unknown token and 401 without a bearer', async () => {
    expect((await logout('unknown-token')).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'POST', url: '/api/en/auth/jwt/logout' })).statusCode).toBe(401);
  });
});
