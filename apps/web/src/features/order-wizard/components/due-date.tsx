import { useSyncExternalStore } from 'react';

// A deadline's moment in the customer's own zone and words ("Tue, Dec 2, 5:14 PM").
const dueFormat = new Intl.DateTimeFormat(undefined, {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
});
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const subscribeMinutes = (tick: () => void) => {
  const timer = setInterval(tick, MINUTE_MS);
  return () => clearInterval(timer);
};
const currentMinute = () => Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS;

/**
 * When an order placed now with this deadline is due (issue 27), kept current minute by minute. Loaded once
 * the step is hydrated (never in the server's render: its clock and zone are not the customer's), so it
 * is not part of /order's first paint; its line's room is kept by the step.
 */
export default function DueDate({ hours }: { hours: number }) {
  const now = useSyncExternalStore(subscribeMinutes, currentMinute, currentMinute);
  return <>by {dueFormat.format(now + hours * HOUR_MS)}</>;
}
