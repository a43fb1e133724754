import { LOYALTY_EARNING_RULE_TEXT, LOYALTY_RULES, type GeneratedDiscount, type LoyaltySummary } from '@app/domain/loyalty';
import type { ReferralItem } from '@app/domain/referral';

/** The loyalty answers of a healthy API (ADR 0050, 0051); a test passes what differs. */
export const loyaltySummaryFixture = (overrides: Partial<LoyaltySummary> = {}): LoyaltySummary => ({
  points: 150,
  rules: [...LOYALTY_RULES],
  currentRule: { from: 100, to: 299, percent: 3 },
  nextRule: { from: 300, to: 599, percent: 5 },
  pointsToNextRule: 150,
  generation: { percent: 3, pointsSpent: 100, pointsLeft: 50 },
  maxAmountDiscount: 100,
  earningRule: LOYALTY_EARNING_RULE_TEXT,
  code: null,
  codes: [],
  ledger: [],
  ...overrides,
});

export const generatedDiscountFixture = (overrides: Partial<GeneratedDiscount> = {}): GeneratedDiscount => ({
  code: 'LOYAL-ABCDEFGHJK',
  source: 'loyalty',
  percent: 3,
  maxAmountDiscount: 100,
  state: 'active',
  dateCreated: '2030-01-05T09:30:00.000Z',
  expiresAt: null,
  usedAt: null,
  idOrder: null,
  ...overrides,
});

export const referralFixture = (id: number, statusId: number, overrides: Partial<ReferralItem> = {}): ReferralItem => ({
  id,
  firstName: `Friend ${id}`,
  email: 'f***@example.com',
  dateCreated: '2030-01-02T09:30:00.000Z',
  status: {
    id: statusId,
    name: ['All', 'New referral', 'In progress', 'Ready to use', 'Discount generated', 'Discount used', 'Discount expired'][statusId] ?? '',
  },
  discount: null,
  ...overrides,
});
