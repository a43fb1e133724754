import { describe, expect, it } from 'vitest';
import { assignWarnings, cannedReplyText, staffViewTone, writerDeadline, writerPayCents } from './rules/index';

const HOUR = 3_600_000;

describe("the writer's pay (ADR 0089)", () => {
  it('is the fee share of the price, rounded down to the cent', () => {
    expect(writerPayCents(2400, 40)).toBe(960);
    expect(writerPayCents(2399, 40)).toBe(959); // 959.6 → 959
    expect(writerPayCents(1, 50)).toBe(0);
  });
  it('is nothing for a price of zero or less, and the share is kept within 0–100 %', () => {
    expect(writerPayCents(0, 40)).toBe(0);
    expect(writerPayCents(-100, 40)).toBe(0);
    expect(writerPayCents(1000, 150)).toBe(1000);
    expect(writerPayCents(1000, -5)).toBe(0);
  });
});

describe("the writer's deadline (ADR 0089)", () => {
  const createdAt = new Date('2026-01-01T00:00:00Z');
  it('falls the lead hours before the customer’s', () => {
    const deadline = new Date(createdAt.getTime() + 240 * HOUR);
    expect(writerDeadline({ deadline, createdAt, leadHours: 12 }).getTime()).toBe(deadline.getTime() - 12 * HOUR);
  });
  it('keeps at least half the time for writing on a short order', () => {
    const deadline = new Date(createdAt.getTime() + 6 * HOUR);
    expect(writerDeadline({ deadline, createdAt, leadHours: 12 }).getTime()).toBe(createdAt.getTime() + 3 * HOUR);
  });
  it('is the customer’s with no lead, and never after it', () => {
    const deadline = new Date(createdAt.getTime() + 24 * HOUR);
    expect(writerDeadline({ deadline, createdAt, leadHours: 0 }).getTime()).toBe(deadline.getTime());
    const past = new Date(createdAt.getTime() - HOUR);
    expect(writerDeadline({ deadline: past, createdAt, leadHours: 12 }).getTime()).toBeLessThanOrEqual(past.getTime());
  });
});

describe('the assignment warnings (ADR 0089)', () => {
  const writer = { id: 7, firstName: 'Ann', lastName: 'Lee', activeOrders: 2, capacity: 5, available: true };
  it('says nothing for an available writer under capacity with no preference', () => {
    expect(assignWarnings({ writer, preferredWriterIds: [] })).toEqual([]);
    expect(assignWarnings({ writer, preferredWriterIds: [7] })).toEqual([]);
  });
  it('warns at capacity, when unavailable, and when the customer preferred another writer', () => {
    const warnings = assignWarnings({ writer: { ...writer, activeOrders: 5, available: false }, preferredWriterIds: [3, 4] });
    expect(warnings).toEqual([
      'Ann Lee is at capacity: 5 active orders of 5.',
      'Ann Lee is marked unavailable.',
      'The customer asked for writers #3, #4.',
    ]);
  });
});

describe('views and canned replies (ADR 0089)', () => {
  it('colours a tile only when it has something', () => {
    expect(staffViewTone('overdue', 0)).toBe('neutral');
    expect(staffViewTone('overdue', 2)).toBe('danger');
    expect(staffViewTone('dueSoon', 1)).toBe('warning');
  });
  it("puts the customer's first name in a reply", () => {
    expect(cannedReplyText('Hello {first}, thanks', 'Mia ')).toBe('Hello Mia, thanks');
    expect(cannedReplyText('Hello {first}, thanks', '')).toBe('Hello there, thanks');
  });
});
