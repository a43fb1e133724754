import { describe, expect, it } from 'vitest';
import { dayKey, dayLabel, withDaySeparators } from './days';

describe("day separators in the customer's time zone", () => {
  it('puts a late-evening UTC message on the next day in Kyiv and the same day in New York', () => {
    expect(dayKey('2026-03-10T23:30:00.000Z', 'Europe/Kyiv')).toBe('2026-03-11');
    expect(dayKey('2026-03-10T23:30:00.000Z', 'America/New_York')).toBe('2026-03-10');
  });

  it('adds one separator before the first message of each day', () => {
    const items = ['2026-03-10T10:00:00.000Z', '2026-03-10T12:00:00.000Z', '2026-03-11T09:00:00.000Z'];
    const out = withDaySeparators(items, (x) => x, 'UTC');
    expect(out.map((i) => i.kind)).toEqual(['day', 'item', 'item', 'day', 'item']);
  });

  it('says Today and Yesterday, else the date', () => {
    const now = Date.parse('2026-03-11T12:00:00.000Z');
    expect(dayLabel('2026-03-11T01:00:00.000Z', now, 'UTC')).toBe('Today');
    expect(dayLabel('2026-03-10T01:00:00.000Z', now, 'UTC')).toBe('Yesterday');
    expect(dayLabel('2026-03-01T01:00:00.000Z', now, 'UTC')).toMatch(/2026/);
  });
});
