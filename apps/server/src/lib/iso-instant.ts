const two = (n: number): string => (n < 10 ? `0${n}` : `${n}`);
const three = (n: number): string => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : `${n}`);

/**
 * ADR 0081: `date.toISOString()`'s text (`2026-11-27T02:12:21.402Z`), written from the date's UTC fields in
 * JavaScript: Node's toISOString is a runtime call, about 1 µs each, and a list page writes 40 to 100
 * instants. Years 1000 to 9999 only (the others, and an invalid date, go to toISOString itself: its
 * six-digit years, its RangeError), so the text is always exactly toISOString's (`iso-instant.test.ts`).
 */
export const isoInstant = (date: Date): string => {
  const year = date.getUTCFullYear();
  if (!(year >= 1000 && year <= 9999)) return date.toISOString();
  return `${year}-${two(date.getUTCMonth() + 1)}-${two(date.getUTCDate())}T${two(date.getUTCHours())}:${two(date.getUTCMinutes())}:${two(
    date.getUTCSeconds(),
  )}.${three(date.getUTCMilliseconds())}Z`;
};
