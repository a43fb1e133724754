import { describe, expect, it } from 'vitest';
import {
  changedConsents,
  customerStatusName,
  customerUpdateBodySchema,
  deviceFromUserAgent,
  groupSessionsByDevice,
  isValidProfilePhone,
  passwordChangeBodySchema,
  privacyBodyOf,
  privacyBodySchema,
  PROFILE_PHONE_MAX_LENGTH,
  PROFILE_PHONE_MESSAGE,
  type Session,
} from './index';

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

describe('profile update body: the address fields (SPEC §3)', () => {
  const base = {
    enabledFacebookMessenger: false,
    enabledNewsletters: true,
    enabledNightCalls: false,
    firstName: 'A',
    lastName: 'B',
    phone: '',
  };
  it('accepts the SPEC §7 body without them, and with them', () => {
    expect(customerUpdateBodySchema.safeParse(base).success).toBe(true);
    expect(customerUpdateBodySchema.parse({ ...base, country: ' Ireland ', zip: 'D02 X285' })).toMatchObject({
      country: 'Ireland',
      zip: 'D02 X285',
    });
  });
  it('refuses a zip over 20 characters and an address over 250', () => {
    expect(customerUpdateBodySchema.safeParse({ ...base, zip: '1'.repeat(21) }).success).toBe(false);
    expect(customerUpdateBodySchema.safeParse({ ...base, address: 'a'.repeat(251) }).success).toBe(false);
  });
  it('refuses 22 digits with the phone rule message', () => {
    const result = customerUpdateBodySchema.safeParse({ ...base, phone: '1'.repeat(22) });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(PROFILE_PHONE_MESSAGE);
  });
});

describe('privacy preferences (CONTRACT: six flags as booleans)', () => {
  const all = {
    cookies_usages: true,
    personal_data: true,
    technical_data: true,
    location_usages: false,
    information_sharing: false,
    email_subscription: false,
  };
  it('takes exactly the six booleans', () => {
    expect(privacyBodySchema.safeParse(all).success).toBe(true);
    expect(privacyBodySchema.safeParse({ ...all, personal_data: 'yes' }).success).toBe(false);
    expect(privacyBodySchema.safeParse({ ...all, extra: true }).success).toBe(false);
    const { email_subscription: _dropped, ...five } = all;
    expect(privacyBodySchema.safeParse(five).success).toBe(false);
  });
  it('lists the changed flags with old and new values, in the SPEC order', () => {
    expect(changedConsents(all, all)).toEqual([]);
    expect(changedConsents(all, { ...all, email_subscription: true, cookies_usages: false })).toEqual([
      { consent: 'cookies_usages', previous: true, granted: false },
      { consent: 'email_subscription', previous: false, granted: true },
    ]);
  });
  it('maps the profile flags to the wire names', () => {
    const customer = {
      enabledCookiesUsage: false,
      enabledPersonalData: true,
      enabledTechnicalData: false,
      enabledLocationUsage: true,
      enabledInformationSharing: false,
      enabledEmailSubscription: true,
    };
    expect(privacyBodyOf(customer)).toEqual({
      cookies_usages: false,
      personal_data: true,
      technical_data: false,
      location_usages: true,
      information_sharing: false,
      email_subscription: true,
    });
  });
});

describe('password change body', () => {
  it('needs the current password and a new one of 8 to 128 characters', () => {
    expect(passwordChangeBodySchema.safeParse({ currentPassword: 'x', newPassword: '12345678' }).success).toBe(true);
    expect(passwordChangeBodySchema.safeParse({ currentPassword: '', newPassword: '12345678' }).success).toBe(false);
    expect(passwordChangeBodySchema.safeParse({ currentPassword: 'x', newPassword: '1234567' }).success).toBe(false);
    expect(passwordChangeBodySchema.safeParse({ currentPassword: 'x', newPassword: 'a'.repeat(129) }).success).toBe(false);
  });
});

describe('device names from a User-Agent', () => {
  it.each([
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36', 'Chrome on Windows'],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1',
      'Safari on iOS',
    ],
    ['Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36', 'Chrome on Android'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14.1; rv:121.0) Gecko/20100101 Firefox/121.0', 'Firefox on macOS'],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Safari/537.36 Edg/120.0',
      'Edge on Windows',
    ],
    ['curl/8.0', 'Unknown device'],
    ['', 'Unknown device'],
  ])('names %s', (ua, device) => {
    expect(deviceFromUserAgent(ua)).toBe(device);
  });
});

describe('groupSessionsByDevice (ADR 0097: one row per device)', () => {
  const s = (id: string, device: string, lastSeenAt: string, current = false): Session => ({
    id,
    device,
    ip: '127.0.0.1',
    signedInAt: '2030-01-01T00:00:00.000Z',
    lastSeenAt,
    current,
  });
  it('merges repeats of one device with their count and the latest last seen; this device first, then newest', () => {
    const groups = groupSessionsByDevice([
      s('a', 'Chrome on Windows', '2030-01-02T00:00:00.000Z'),
      s('b', 'Safari on iOS', '2030-01-05T00:00:00.000Z'),
      s('c', 'Chrome on Windows', '2030-01-04T00:00:00.000Z'),
      s('d', 'Firefox on Linux', '2030-01-01T00:00:00.000Z', true),
      s('e', 'Safari on iOS', '2030-01-03T00:00:00.000Z'),
    ]);
    expect(groups.map((g) => [g.device, g.sessions.length, g.lastSeenAt, g.current])).toEqual([
      ['Firefox on Linux', 1, '2030-01-01T00:00:00.000Z', true],
      ['Safari on iOS', 2, '2030-01-05T00:00:00.000Z', false],
      ['Chrome on Windows', 2, '2030-01-04T00:00:00.000Z', false],
    ]);
    expect(groups[1]?.endable).toEqual(['b', 'e']);
    expect(groups[0]?.endable).toEqual([]);
  });
  it("signing out this device's row ends its other sessions, never this one", () => {
    const [group] = groupSessionsByDevice([
      s('x', 'Chrome on macOS', '2030-01-02T00:00:00.000Z'),
      s('y', 'Chrome on macOS', '2030-01-01T00:00:00.000Z', true),
    ]);
    expect(group).toMatchObject({ current: true, endable: ['x'] });
    expect(groupSessionsByDevice([])).toEqual([]);
  });
  it('keeps every session in exactly one row', () => {
    const devices = ['A', 'B', 'C'];
    const list = Array.from({ length: 20 }, (_, i) =>
      s(`id${i}`, devices[i % 3] ?? 'A', new Date(Date.UTC(2030, 0, 1 + i)).toISOString(), i === 7),
    );
    const ids = groupSessionsByDevice(list).flatMap((g) => g.sessions.map((x) => x.id));
    expect(ids.sort()).toEqual(list.map((x) => x.id).sort());
  });
});
