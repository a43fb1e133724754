import { describe, expect, it } from 'vitest';
import { customerStatusName, customerUpdateBodySchema, isValidProfilePhone, PROFILE_PHONE_MAX_LENGTH } from './index';

describe('profile phone: digits only, max 21 characters (SPEC §5)', () => {
  it.each(['', '1', '12025550123', '1'.repeat(PROFILE_PHONE_MAX_LENGTH)])('accepts %s', (phone) => {
    expect(isValidProfilePhone(phone)).toBe(true);
  });
  it.each(['+12025550123', '(202) 555', '1'.repeat(PROFILE_PHONE_MAX_LENGTH + 1), 'abc'])('refuses %s', (phone) => {
    expect(isValidProfilePhone(phone)).toBe(false);
  });
  it('is enforced by the update schema', () => {
    const base = { enabledFacebookMessenger: false, enabledNewsletters: true, enabledNightCalls: false, firstName: 'A', lastName: 'B' };
    expect(customerUpdateBodySchema.safeParse({ ...base, phone: '123' }).success).toBe(true);
    expect(customerUpdateBodySchema.safeParse({ ...base, phone: '+1 23' }).success).toBe(false);
  });
});

describe('customer status names (CONTRACT "Identity")', () => {
  it('names 3 Awaiting Confirmation', () => {
    expect(customerStatusName(3)).toBe('Awaiting Confirmation');
    expect(customerStatusName(1)).toBe('Active');
    expect(customerStatusName(4)).toBe('Deactivated');
  });
});
