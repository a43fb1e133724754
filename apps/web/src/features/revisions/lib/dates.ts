/**
 * Dates as the customer reads them: the server sends ISO 8601 UTC (CONTRACT); the browser's own time
 * zone and locale show it, as the order page does (ADR 0022).
 */
const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

export const formatDateTime = (iso: string | Date): string => dateTime.format(new Date(iso));
export const formatDate = (iso: string | Date): string => dateOnly.format(new Date(iso));

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** "2 d 4 h 12 min left", or null once the moment has passed. */
export const countdown = (iso: string, now: number): string | null => {
  const diff = new Date(iso).getTime() - now;
  if (diff <= 0) return null;
  const days = Math.floor(diff / DAY_MS);
  const hours = Math.floor((diff % DAY_MS) / HOUR_MS);
  const minutes = Math.floor((diff % HOUR_MS) / MINUTE_MS);
  const parts = [days > 0 ? `${days} d` : null, days > 0 || hours > 0 ? `${hours} h` : null, `${minutes} min`];
  return `${parts.filter(Boolean).join(' ')} left`;
};

/** The customer's IANA time zone (e.g. Europe/Kyiv), as the browser knows it. */
export const customerTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
