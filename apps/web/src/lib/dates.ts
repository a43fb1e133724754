/**
 * Dates as the customer reads them: the server sends ISO 8601 UTC (CONTRACT "Errors and access"), the
 * browser's own time zone and locale show it. Intl does it all; no date library is needed (ADR 0022).
 * Shared by the order page, the dashboard and the revisions.
 */
// Made on first use (`dateTimeFormat`), not when this module is evaluated: the first formatter loads the
// browser's locale data, which `warmDateFormats` does in a task of its own (ADR 0101).
let relative: Intl.RelativeTimeFormat | undefined;

export const formatDateTime = (iso: string | Date): string =>
  dateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
export const formatDate = (iso: string | Date): string => dateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(iso));

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/** "in 3 days", "in 5 hours", "2 hours ago": the largest unit that is at least one. */
export const formatTimeLeft = (iso: string, now: number): string => {
  const diff = new Date(iso).getTime() - now;
  const abs = Math.abs(diff);
  relative ??= new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
  if (abs >= DAY_MS) return relative.format(Math.trunc(diff / DAY_MS), 'day');
  if (abs >= HOUR_MS) return relative.format(Math.trunc(diff / HOUR_MS), 'hour');
  return relative.format(Math.trunc(diff / MINUTE_MS), 'minute');
};

/** A deadline's countdown: "2 d 4 h 12 min left", or null once the moment has passed. */
export const countdown = (iso: string, now: number): string | null => {
  const diff = new Date(iso).getTime() - now;
  if (diff <= 0) return null;
  const days = Math.floor(diff / DAY_MS);
  const hours = Math.floor((diff % DAY_MS) / HOUR_MS);
  const minutes = Math.floor((diff % HOUR_MS) / MINUTE_MS);
  const parts = [days > 0 ? `${days} d` : null, days > 0 || hours > 0 ? `${hours} h` : null, `${minutes} min`];
  return `${parts.filter(Boolean).join(' ')} left`;
};

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * One Intl.DateTimeFormat per locale and options, made once: making one costs far more than using it (a
 * chat drew each message's time and day through new ones, on every render of the Messages tab, ADR 0101).
 */
export const dateTimeFormat = (locale: string | undefined, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat => {
  const key = `${locale ?? ''}|${JSON.stringify(options)}`;
  let format = formatters.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, options);
    formatters.set(key, format);
  }
  return format;
};

/**
 * ADR 0101: a signed-in page shows dates. The first formatter loads the browser's locale data (about 60 ms
 * on a slow phone): made here in a task of its own, while the page's answers are on their way, not inside
 * the evaluation of its code or its first render.
 */
export const warmDateFormats = (): void => {
  setTimeout(() => formatDateTime(new Date(0)), 0);
};

/** The customer's IANA time zone (e.g. Europe/Kyiv), as the browser knows it. */
export const customerTimeZone = (): string => dateTimeFormat(undefined, {}).resolvedOptions().timeZone || 'UTC';
