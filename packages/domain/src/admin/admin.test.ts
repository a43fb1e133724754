import { describe, expect, it } from 'vitest';
import {
  ADMIN_MESSAGE,
  adminCodeProblems,
  adminPriceProblems,
  csvField,
  DISCOUNT_LIMIT_MESSAGE,
  discountLimitProblem,
  type AdminCodeInput,
  type DiscountLimits,
} from './rules/index';

const code = (c: Partial<AdminCodeInput> = {}): AdminCodeInput => ({
  code: 'SPRING10',
  percent: 10,
  amount: 0,
  perCustomerLimit: null,
  totalLimit: null,
  startsAt: null,
  endsAt: null,
  ...c,
});

describe('adminCodeProblems (ADR 0090)', () => {
  it('accepts a percent code and a fixed-amount code', () => {
    expect(adminCodeProblems(code())).toEqual({});
    expect(adminCodeProblems(code({ percent: 0, amount: 5.5 }))).toEqual({});
    expect(adminCodeProblems(code({ percent: 100 }))).toEqual({});
  });
  it('refuses a percent over 100, negative values, both kinds, neither', () => {
    expect(adminCodeProblems(code({ percent: 101 }))).toEqual({ percent: [ADMIN_MESSAGE.percentOver100] });
    expect(adminCodeProblems(code({ percent: -1 }))).toEqual({ percent: [ADMIN_MESSAGE.noDiscount] });
    expect(adminCodeProblems(code({ percent: 0, amount: -2 }))).toEqual({ amount: [ADMIN_MESSAGE.noDiscount] });
    expect(adminCodeProblems(code({ percent: 10, amount: 2 }))).toEqual({ amount: [ADMIN_MESSAGE.percentOrAmount] });
    expect(adminCodeProblems(code({ percent: 0, amount: 0 }))).toEqual({ percent: [ADMIN_MESSAGE.noDiscount] });
    expect(adminCodeProblems(code({ percent: 10.5 }))).toEqual({ percent: [ADMIN_MESSAGE.noDiscount] });
  });
  it('refuses a malformed code and an end before the start', () => {
    expect(adminCodeProblems(code({ code: 'ab' }))).toEqual({ code: [ADMIN_MESSAGE.codeFormat] });
    expect(adminCodeProblems(code({ code: 'two words' }))).toEqual({ code: [ADMIN_MESSAGE.codeFormat] });
    expect(adminCodeProblems(code({ startsAt: '2030-01-02T00:00:00Z', endsAt: '2030-01-01T00:00:00Z' }))).toEqual({
      endsAt: [ADMIN_MESSAGE.endsBeforeStart],
    });
    expect(adminCodeProblems(code({ startsAt: '2030-01-01T00:00:00Z', endsAt: '2030-01-01T00:00:00Z' }))).toEqual({
      endsAt: [ADMIN_MESSAGE.endsBeforeStart],
    });
  });
});

describe('adminPriceProblems (ADR 0090)', () => {
  const rate = (pricePerPage: number, urgency = 240, idLevel = 1) => ({ idWorkType: 1, idLevel, urgency, pricePerPage });
  it('accepts positive rates at known urgencies', () => {
    expect(
      adminPriceProblems(
        { rates: [rate(12), rate(20, 24)], extras: [{ key: 'premiumWriter', kind: 'percent', value: 25 }], maxAmountDiscount: 0 },
        [240, 24],
      ),
    ).toEqual({});
  });
  it('refuses a zero or negative price (also one that rounds to 0 cents), naming the row', () => {
    expect(adminPriceProblems({ rates: [rate(12), rate(0)], extras: [], maxAmountDiscount: 0 }, [240])).toMatchObject({
      'rates.1.pricePerPage': [ADMIN_MESSAGE.priceNotPositive],
    });
    expect(adminPriceProblems({ rates: [rate(-3)], extras: [], maxAmountDiscount: 0 }, [240])).toHaveProperty('rates.0.pricePerPage');
    expect(adminPriceProblems({ rates: [rate(0.004)], extras: [], maxAmountDiscount: 0 }, [240])).toHaveProperty('rates.0.pricePerPage');
  });
  it('refuses an unknown urgency, a row twice, no rows, a negative extra, a percent extra over 100', () => {
    expect(adminPriceProblems({ rates: [rate(12, 7)], extras: [], maxAmountDiscount: 0 }, [240])).toEqual({
      'rates.0.urgency': [ADMIN_MESSAGE.unknownUrgency],
    });
    expect(adminPriceProblems({ rates: [rate(12), rate(13)], extras: [], maxAmountDiscount: 0 }, [240])).toEqual({
      'rates.1': [ADMIN_MESSAGE.duplicateRate],
    });
    expect(adminPriceProblems({ rates: [], extras: [], maxAmountDiscount: 0 }, [240])).toEqual({ rates: [ADMIN_MESSAGE.noRates] });
    expect(
      adminPriceProblems({ rates: [rate(12)], extras: [{ key: 'onePageSummary', kind: 'flat', value: -1 }], maxAmountDiscount: 0 }, [240]),
    ).toEqual({ 'extras.0.value': [ADMIN_MESSAGE.extraNegative] });
    expect(
      adminPriceProblems(
        { rates: [rate(12)], extras: [{ key: 'premiumWriter', kind: 'percent', value: 101 }], maxAmountDiscount: -1 },
        [240],
      ),
    ).toEqual({ 'extras.0.value': [ADMIN_MESSAGE.percentOver100], maxAmountDiscount: [ADMIN_MESSAGE.extraNegative] });
  });
});

describe('discountLimitProblem (ADR 0090)', () => {
  const none: DiscountLimits = { firstOrderOnly: false, perCustomerLimit: null, totalLimit: null, startsAt: null, endsAt: null };
  const now = new Date('2030-06-01T12:00:00Z');
  const usage = { now, customerOrders: 0, customerUses: 0, totalUses: 0 };
  it('lets a code without limits through', () => {
    expect(discountLimitProblem(none, { ...usage, customerOrders: 5, totalUses: 1000 })).toBeNull();
  });
  it('refuses before the start and from the end on', () => {
    expect(discountLimitProblem({ ...none, startsAt: new Date('2030-06-02T00:00:00Z') }, usage)).toBe(DISCOUNT_LIMIT_MESSAGE.notStarted);
    expect(discountLimitProblem({ ...none, endsAt: now }, usage)).toBe(DISCOUNT_LIMIT_MESSAGE.ended);
    expect(discountLimitProblem({ ...none, startsAt: now, endsAt: new Date('2030-06-02T00:00:00Z') }, usage)).toBeNull();
  });
  it('counts the total, the customer’s uses and their other orders', () => {
    expect(discountLimitProblem({ ...none, totalLimit: 2 }, { ...usage, totalUses: 1 })).toBeNull();
    expect(discountLimitProblem({ ...none, totalLimit: 2 }, { ...usage, totalUses: 2 })).toBe(DISCOUNT_LIMIT_MESSAGE.totalLimit);
    expect(discountLimitProblem({ ...none, perCustomerLimit: 1 }, { ...usage, customerUses: 1 })).toBe(
      DISCOUNT_LIMIT_MESSAGE.perCustomerLimit,
    );
    expect(discountLimitProblem({ ...none, firstOrderOnly: true }, { ...usage, customerOrders: 1 })).toBe(
      DISCOUNT_LIMIT_MESSAGE.firstOrderOnly,
    );
    expect(discountLimitProblem({ ...none, firstOrderOnly: true }, usage)).toBeNull();
  });
  it('leaves the per-customer rules to the order when nobody is signed in', () => {
    expect(
      discountLimitProblem({ ...none, firstOrderOnly: true, perCustomerLimit: 1 }, { ...usage, customerOrders: null, customerUses: null }),
    ).toBeNull();
  });
});

describe('csvField', () => {
  it('quotes commas, quotes and line breaks, writes JSON for objects, empties null', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
    expect(csvField({ status: 2 })).toBe('"{""status"":2}"');
    expect(csvField(null)).toBe('');
    expect(csvField(42)).toBe('42');
  });
  it('neutralises what a spreadsheet would run as a formula', () => {
    expect(csvField('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvField('+1')).toBe("'+1");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
  });
});
