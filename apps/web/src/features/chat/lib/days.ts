import { dateTimeFormat } from '@/lib/dates';

/**
 * Day separators in the customer's time zone (lib/dates.ts gives the zone): messages are grouped by the
 * calendar day they were sent on where the customer is, not in UTC.
 */
export const dayKey = (iso: string, timeZone: string): string => {
  const parts = dateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).formatToParts(new Date(iso));
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('year')}-${get('month')}-${get('day')}`;
};

export type DayItem<T> = { kind: 'day'; key: string; iso: string } | { kind: 'item'; item: T };

/** The items with a day separator before the first item of each day. */
export const withDaySeparators = <T>(items: readonly T[], isoOf: (item: T) => string, timeZone: string): DayItem<T>[] => {
  const out: DayItem<T>[] = [];
  let last: string | null = null;
  for (const item of items) {
    const iso = isoOf(item);
    const key = dayKey(iso, timeZone);
    if (key !== last) {
      out.push({ kind: 'day', key, iso });
      last = key;
    }
    out.push({ kind: 'item', item });
  }
  return out;
};

/** "Today", "Yesterday" or the date, for a separator. */
export const dayLabel = (iso: string, now: number, timeZone: string): string => {
  const key = dayKey(iso, timeZone);
  if (key === dayKey(new Date(now).toISOString(), timeZone)) return 'Today';
  if (key === dayKey(new Date(now - 86_400_000).toISOString(), timeZone)) return 'Yesterday';
  return dateTimeFormat(undefined, { timeZone, dateStyle: 'long' }).format(new Date(iso));
};
