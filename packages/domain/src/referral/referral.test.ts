import { describe, expect, it } from 'vitest';
import {
  canGenerateReferralDiscount,
  isReferralFilterId,
  maskEmail,
  matchesReferralFilter,
  REFERRAL_MESSAGE,
  REFERRAL_STATUS,
  REFERRAL_STATUS_NAME,
  referralDiscountExpiry,
  referralFraud,
  referralStatus,
  referralUrl,
  type ReferralFacts,
  type ReferralStatusId,
} from './index';

const now = new Date('2026-05-10T00:00:00Z');
const facts = (f: Partial<ReferralFacts>): ReferralFacts => ({ hasOrder: false, hasPaidOrder: false, discount: null, ...f });

describe('referralStatus (SPEC §4, CONTRACT)', () => {
  it.each<[string, Partial<ReferralFacts>, ReferralStatusId]>([
    ['signed up', {}, 1],
    ['placed an order', { hasOrder: true }, 2],
    ['paid an order', { hasOrder: true, hasPaidOrder: true }, 3],
    ['discount generated', { hasOrder: true, hasPaidOrder: true, discount: { usedAt: null, expiresAt: new Date('2026-06-01') } }, 4],
    [
      'discount used',
      { hasOrder: true, hasPaidOrder: true, discount: { usedAt: new Date('2026-05-09'), expiresAt: new Date('2026-06-01') } },
      5,
    ],
    ['discount expired', { hasOrder: true, hasPaidOrder: true, discount: { usedAt: null, expiresAt: new Date('2026-05-09') } }, 6],
    [
      'used before it would expire stays used',
      { hasPaidOrder: true, discount: { usedAt: new Date('2026-05-01'), expiresAt: new Date('2026-05-02') } },
      5,
    ],
    ['the paid order was refunded before generation', { hasOrder: true, hasPaidOrder: false }, 2],
  ])('%s: %i', (_name, f, status) => {
    expect(referralStatus(facts(f), now)).toBe(status);
  });
  it('only a ready referral generates a discount', () => {
    const allowed = ([1, 2, 3, 4, 5, 6] as const).filter((s) => canGenerateReferralDiscount(s));
    expect(allowed).toEqual([REFERRAL_STATUS.readyToUse]);
    expect(REFERRAL_MESSAGE.generationFailed).toBe('Problem occurred while generating your discount');
  });
});

describe('the status filter 0–6', () => {
  it('names every status and 0 keeps them all', () => {
    expect(Object.keys(REFERRAL_STATUS_NAME)).toEqual(['0', '1', '2', '3', '4', '5', '6']);
    expect(REFERRAL_STATUS_NAME[3]).toBe('Ready to use');
    for (const s of [1, 2, 3, 4, 5, 6] as const) {
      expect(matchesReferralFilter(s, 0)).toBe(true);
      expect(matchesReferralFilter(s, s)).toBe(true);
      expect(matchesReferralFilter(s, s === 6 ? 1 : ((s + 1) as ReferralStatusId))).toBe(false);
    }
  });
  it.each([[-1], [7], [1.5], [Number.NaN]])('refuses %s as a filter', (n) => {
    expect(isReferralFilterId(n)).toBe(false);
  });
});

describe('referralFraud (ADR 0051)', () => {
  const base = {
    referrerId: 1,
    referredId: 2,
    referrerChain: [],
    hashDevice: 'dev-b',
    referrerDevices: ['dev-a'],
    devicesOfOtherAccounts: ['dev-a', 'dev-c'],
  };
  it('lets an honest sign-up count', () => {
    expect(referralFraud(base)).toBeNull();
    expect(referralFraud({ ...base, hashDevice: '' })).toBeNull();
  });
  it('refuses a self-referral by id or by the referrer’s device', () => {
    expect(referralFraud({ ...base, referredId: 1 })).toBe('self');
    expect(referralFraud({ ...base, hashDevice: 'dev-a' })).toBe('self');
    expect(referralFraud({ ...base, hashDevice: ' dev-a ' })).toBe('self');
  });
  it('refuses a loop, direct or further up', () => {
    expect(referralFraud({ ...base, referrerChain: [2] })).toBe('loop');
    expect(referralFraud({ ...base, referrerChain: [5, 7, 2] })).toBe('loop');
  });
  it('refuses a second account from a device another account used', () => {
    expect(referralFraud({ ...base, hashDevice: 'dev-c' })).toBe('same_device');
  });
});

describe('link, mask, expiry', () => {
  it('builds /order?ref_id=…', () => {
    expect(referralUrl('https://x.test', 42)).toBe('https://x.test/order?ref_id=42');
  });
  it('masks the friend’s email', () => {
    expect(maskEmail('alice@example.com')).toBe('a***@example.com');
    expect(maskEmail('broken')).toBe('***');
  });
  it('expires a referral discount 30 days after generation', () => {
    expect(referralDiscountExpiry(new Date('2026-01-01T00:00:00Z')).toISOString()).toBe('2026-01-31T00:00:00.000Z');
  });
});
