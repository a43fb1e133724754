import { describe, expect, it } from 'vitest';
import { billingDetailsSchema } from '../customer/index';
import { buyerLines, documentFileName, documentLines, documentNumber, type DocumentOrder } from './index';

const order: DocumentOrder = {
  id: 12,
  uid: 'u',
  title: 'Essay',
  workType: 'Writing',
  paperType: 'Essay (any type)',
  level: 'College',
  pages: 1,
  spacing: 1,
  urgencyHours: 48,
  deadline: '2026-01-01T00:00:00.000Z',
  basicPriceCents: 2000,
  extras: {
    premiumWriterCents: 500,
    preferredWriterCents: 0,
    extraQualityCheckCents: 0,
    originalityReportCents: 999,
    onePageSummaryCents: 0,
  },
  discountCode: 'WELCOME10',
  discountCents: 350,
  finalPriceCents: 3149,
};

describe('receipt and credit note numbers (ADR 0085)', () => {
  it.each([
    ['receipt', 1, 'R-000001', 'receipt-R-000001.pdf'],
    ['credit_note', 42, 'CN-000042', 'credit-note-CN-000042.pdf'],
    ['receipt', 1_234_567, 'R-1234567', 'receipt-R-1234567.pdf'],
  ] as const)('%s %i prints as %s in %s', (kind, n, printed, file) => {
    expect(documentNumber(kind, n)).toBe(printed);
    expect(documentFileName(kind, n)).toBe(file);
    expect(documentFileName(kind, printed)).toBe(file);
  });
});

describe('document lines', () => {
  it('lists the work, each extra taken, and the discount as a negative line', () => {
    expect(documentLines(order)).toEqual([
      { label: 'Writing · Essay (any type) · College · 1 page, single spaced · 2 days', cents: 2000 },
      { label: 'Premium writer', cents: 500 },
      { label: 'Originality report', cents: 999 },
      { label: 'Discount (WELCOME10)', cents: -350 },
    ]);
    expect(documentLines({ ...order, urgencyHours: 8, pages: 3, spacing: 2, discountCents: 0, paperType: null })[0]?.label).toBe(
      'Writing · College · 3 pages, double spaced · 8 hours',
    );
  });
  it('prints the buyer line by line, without empty parts', () => {
    expect(buyerLines({ name: 'Ada', company: '', taxId: 'GB1', address: '1 Road\n\nLondon', email: 'a@example.com' })).toEqual([
      'Ada',
      '1 Road',
      'London',
      'Tax ID: GB1',
      'a@example.com',
    ]);
  });
});

describe('billing details body', () => {
  const base = { name: '', company: '', taxId: '', address: '' };
  it('trims, keeps line breaks in the address only, and refuses control characters and long values', () => {
    expect(billingDetailsSchema.parse({ ...base, name: ' Ada ', address: 'a\r\nb\n\n\n\nc' })).toEqual({
      ...base,
      name: 'Ada',
      address: 'a\nb\n\nc',
    });
    expect(billingDetailsSchema.safeParse({ ...base, company: 'a\nb' }).success).toBe(false);
    expect(billingDetailsSchema.safeParse({ ...base, taxId: 'x\u0007' }).success).toBe(false);
    expect(billingDetailsSchema.safeParse({ ...base, taxId: 'x'.repeat(51) }).success).toBe(false);
    expect(billingDetailsSchema.safeParse({ ...base, address: 'x'.repeat(251) }).success).toBe(false);
  });
});
