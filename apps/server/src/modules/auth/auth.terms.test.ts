import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TERMS_MESSAGE } from '@app/domain';
import { buildTestApp, type TestApp } from '../../testing/build-test-app';

/**
 * Issue 24, ADR 0085: sign-up (the checkout's terms checkbox) records which versions of the Terms and the
 * Privacy Policy were accepted, when, from which address and browser; a new version asks again, and the
 * personal-data report carries every acceptance.
 */
let t: TestApp;
let seq = 0;
const UA = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/140.0 Safari/537.36';

beforeAll(async () => {
  t = await buildTestApp({ env: { TERMS_VERSION: '2026-01', PRIVACY_VERSION: 'p-7' } });
});
afterAll(async () => {
  await t?.close();
});

const signUp = async (app: TestApp['app'], extra: Record<string, unknown>) => {
  seq += 1;
  const res = await app.inject({
    method: 'POST',
    url: '/api/en/auth/jwt/sign_up',
    headers: { 'user-agent': UA },
    remoteAddress: `10.31.0.${seq}`,
    payload: { email: `terms-${seq}@example.com`, firstName: 'Terry', phone: '12025550123', ...extra },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { authorization: `Bearer ${res.json<{ accessToken: string }>().accessToken}`, ip: `10.31.0.${seq}` };
};
const status = async (app: TestApp['app'], auth: { authorization: string }) =>
  (await app.inject({ method: 'GET', url: '/api/en/customers/terms', headers: auth })).json<{
    termsVersion: string;
    privacyVersion: string;
    accepted: boolean;
    acceptedAt: string | null;
  }>();
const report = async (app: TestApp['app'], auth: { authorization: string }) => {
  const me = await app.inject({ method: 'GET', url: '/api/en/customers/customer', headers: auth });
  const res = await app.inject({ method: 'GET', url: `/api/en/customers/customer/gdpr?id=${me.json<{ id: number }>().id}`, headers: auth });
  expect(res.statusCode).toBe(200);
  return res.json<{ acceptances: Record<string, unknown>[] }>();
};

describe('terms on record (ADR 0085)', () => {
  it('sign-up with the box ticked records the versions, time, IP and user agent; the report carries them as acceptances', async () => {
    const me = await signUp(t.app, { terms: true });
    expect(await status(t.app, me)).toEqual({
      termsVersion: '2026-01',
      privacyVersion: 'p-7',
      accepted: true,
      acceptedAt: t.clock.now().toISOString(),
    });
    const { acceptances } = await report(t.app, me);
    expect(acceptances).toEqual([
      expect.objectContaining({ termsVersion: '2026-01', privacyVersion: 'p-7', context: 'sign_up', ip: me.ip, userAgent: UA }),
    ]);
    expect(new Date(String(acceptances[0]?.acceptedAt)).toISOString()).toBe(t.clock.now().toISOString());
  });

  it('sign-up without it records nothing: the customer is asked', async () => {
    const me = await signUp(t.app, {});
    expect(await status(t.app, me)).toMatchObject({ accepted: false, acceptedAt: null });
    expect((await report(t.app, me)).acceptances).toEqual([]);
  });

  it('a new version asks again; only the versions shown, while current, are accepted, once', async () => {
    const me = await signUp(t.app, { terms: true });
    // The operator publishes new Terms: another instance (the same database) with the new version.
    const next = await buildTestApp({ db: t.db, clock: t.clock, env: { TERMS_VERSION: '2026-02', PRIVACY_VERSION: 'p-7' } });
    try {
      t.clock.advance(60_000);
      const asked = await status(next.app, me);
      expect(asked).toMatchObject({ termsVersion: '2026-02', privacyVersion: 'p-7', accepted: false });
      const accept = (versions: { termsVersion: string; privacyVersion: string }) =>
        next.app.inject({
          method: 'POST',
          url: '/api/en/customers/terms/acceptances',
          headers: { ...me, 'user-agent': 'Phone Browser' },
          remoteAddress: '10.32.0.9',
          payload: versions,
        });
      const stale = await accept({ termsVersion: '2026-01', privacyVersion: 'p-7' });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toEqual({ message: TERMS_MESSAGE.versionChanged });
      expect((await accept({ termsVersion: 'x'.repeat(65), privacyVersion: 'p-7' })).statusCode).toBe(422);

      const [a, b] = await Promise.all([
        accept({ termsVersion: '2026-02', privacyVersion: 'p-7' }),
        accept({ termsVersion: '2026-02', privacyVersion: 'p-7' }),
      ]);
      expect([a?.statusCode, b?.statusCode]).toEqual([200, 200]);
      expect(a?.json()).toMatchObject({ accepted: true, termsVersion: '2026-02' });
      const { acceptances } = await report(next.app, me);
      expect(acceptances.map((x) => [x.termsVersion, x.context, x.ip, x.userAgent])).toEqual([
        ['2026-01', 'sign_up', me.ip, UA],
        ['2026-02', 'prompt', '10.32.0.9', 'Phone Browser'],
      ]);
      // The old instance still serves the old version, which this customer accepted too.
      expect((await status(t.app, me)).accepted).toBe(true);
    } finally {
      await next.close();
    }
  });

  it('needs a customer', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/en/customers/terms' })).statusCode).toBe(401);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/en/customers/terms/acceptances',
          payload: { termsVersion: '2026-01', privacyVersion: 'p-7' },
        })
      ).statusCode,
    ).toBe(401);
  });
});
