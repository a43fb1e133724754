import { describe, expect, it } from 'vitest';
import {
  AUTH_MESSAGE,
  emailOnItsWayBody,
  isCustomerRole,
  isStaffRole,
  hasSupportRights,
  isAdminRole,
  isValidEmail,
  isValidName,
  normalizeEmail,
  signUpBodySchema,
} from './index';

describe('email check: a standard address pattern (SPEC §5)', () => {
  it.each(['demo@example.com', 'first.last+tag@sub.example.co.uk', 'a@b.io'])('accepts %s', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });
  it.each(['', 'plain', 'a@', '@b.com', 'a@b', 'a b@c.com', 'a@b..com', `${'x'.repeat(250)}@b.com`])('refuses %s', (email) => {
    expect(isValidEmail(email)).toBe(false);
  });
  it('compares emails case-insensitively', () => {
    expect(normalizeEmail('  Demo@Example.COM ')).toBe('demo@example.com');
  });
});

describe('roles (SPEC §1)', () => {
  it('treats 1 and 2 as customers and 3, 6 and 7 as staff', () => {
    expect([1, 2, 3, 6, 7].map(isCustomerRole)).toEqual([true, true, false, false, false]);
    expect([1, 2, 3, 6, 7].map(isStaffRole)).toEqual([false, false, true, true, true]);
  });
  it('gives support rights to support and admin only, admin rights to admin only (ADR 0090)', () => {
    expect([1, 2, 3, 6, 7].map(hasSupportRights)).toEqual([false, false, false, true, true]);
    expect([1, 2, 3, 6, 7].map(isAdminRole)).toEqual([false, false, false, false, true]);
  });
});

describe('sign-up', () => {
  it('needs a letter in the name (SPEC §8 "Please provide valid Name")', () => {
    expect(isValidName('Alex')).toBe(true);
    expect(isValidName('José')).toBe(true);
    expect(isValidName('12345')).toBe(false);
    expect(isValidName('<b>x</b>')).toBe(false);
  });
  it('makes the password optional (CONTRACT "Identity")', () => {
    expect(signUpBodySchema.safeParse({ email: 'a@b.io' }).success).toBe(true);
  });
});

describe('notices are worded as SPEC §8 says', () => {
  it('has the magic-link body start and end', () => {
    const body = emailOnItsWayBody('a@b.io');
    expect(body.startsWith('We sent an email')).toBe(true);
    expect(body.endsWith('The link expires in 12 hours')).toBe(true);
    expect(AUTH_MESSAGE.emailOnItsWay).toBe('An email is on its way!');
  });
});
