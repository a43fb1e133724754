import { describe, expect, it } from 'vitest';
import { createTestClock } from '../testing/build-test-app';
import { createAccessTokens } from './jwt';

const SECRET = 'jwt-unit-secret-jwt-unit-secret-0123456789';

describe('access tokens', () => {
  it('verifies its own token and refuses one signed with another secret', async () => {
    const clock = createTestClock(new Date('2026-01-01T00:00:00Z'));
    const tokens = createAccessTokens(SECRET, clock);
    const other = createAccessTokens('another-secret-another-secret-0123456789', clock);
    const token = await tokens.sign({ userId: 7, role: 1 });
    expect(await tokens.verify(token)).toEqual({ userId: 7, role: 1 });
    expect(await other.verify(token)).toBeNull();
  });

  it('still expires a token after 15 minutes once it has been verified (and remembered)', async () => {
    const clock = createTestClock(new Date('2026-01-01T00:00:00Z'));
    const tokens = createAccessTokens(SECRET, clock);
    const token = await tokens.sign({ userId: 7, role: 1 });
    expect(await tokens.verify(token)).not.toBeNull();
    clock.advance(14 * 60 * 1000 + 59_000);
    expect(await tokens.verify(token)).not.toBeNull();
    clock.advance(1000);
    expect(await tokens.verify(token)).toBeNull();
  });

  it('does not remember a forged token as valid', async () => {
    const clock = createTestClock(new Date('2026-01-01T00:00:00Z'));
    const tokens = createAccessTokens(SECRET, clock);
    const token = await tokens.sign({ userId: 7, role: 1 });
    const [header, payload] = token.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(43)}`;
    expect(await tokens.verify(forged)).toBeNull();
    expect(await tokens.verify(forged)).toBeNull();
    expect(await tokens.verify(token)).not.toBeNull();
  });
});
