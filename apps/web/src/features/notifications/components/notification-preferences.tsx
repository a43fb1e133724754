import {
  isEmailLocked,
  LOCKED_EMAIL_REASON,
  NOTIFICATION_LABEL,
  NOTIFICATION_TYPES,
  type NotificationType,
} from '@app/domain/notification';
import { useState } from 'react';
import { Alert } from '@/components/ui/alert';
import { usePreferences, useSetPreference } from '../api/notifications';

/**
 * ADR 0088, CONTRACT "Notifications": `/profile`'s one table of choices: a row per type, a column per
 * channel (email, browser push); a change applies at once. Receipts' email is locked, and says why.
 */
export function NotificationPreferencesTable() {
  const prefs = usePreferences();
  const set = useSetPreference();
  // The boxes just changed, shown as chosen in the same render as the click: the query's own update
  // (onMutate) reaches the table a task later, and a controlled box would be put back meanwhile. They hold
  // against the data they were chosen on; once the query's data changes (the change applied, the answer,
  // or a refusal put back) the data says what is saved.
  const [chosen, setChosen] = useState<{ against: unknown; boxes: ReadonlyMap<string, boolean> }>({ against: undefined, boxes: new Map() });
  if (prefs.isPending) return <p className="text-sm text-slate-600">Loading…</p>;
  if (!prefs.data) return <Alert tone="error">Your notification settings could not be loaded.</Alert>;
  const data = prefs.data;
  const toggle = (type: NotificationType, channel: 'email' | 'push', on: boolean) => {
    setChosen((c) => ({ against: data, boxes: new Map(c.against === data ? c.boxes : []).set(`${type}:${channel}`, on) }));
    set.mutate({ [type]: { [channel]: on } });
  };
  const shown = (type: NotificationType, channel: 'email' | 'push', saved: boolean) =>
    (chosen.against === data ? chosen.boxes.get(`${type}:${channel}`) : undefined) ?? saved;
  return (
    <div className="flex flex-col gap-2">
      {set.isError && <Alert tone="error">That change was not saved. Please try again.</Alert>}
      <table className="w-full text-sm">
        <caption className="sr-only">Which notifications you get by email and as browser notifications</caption>
        <thead>
          <tr className="border-b border-slate-200 text-left">
            <th scope="col" className="py-2 pr-2 font-semibold">
              Notification
            </th>
            <th scope="col" className="w-16 px-2 py-2 text-center font-semibold">
              Email
            </th>
            <th scope="col" className="w-16 px-2 py-2 text-center font-semibold">
              Push
            </th>
          </tr>
        </thead>
        <tbody>
          {NOTIFICATION_TYPES.map((type) => {
            const locked = isEmailLocked(type);
            const row = data[type] ?? { email: true, push: false };
            return (
              <tr key={type} className="border-b border-slate-100">
                <th scope="row" className="py-2 pr-2 text-left font-normal">
                  {NOTIFICATION_LABEL[type]}
                  {locked && (
                    <span id={`locked-${type}`} className="block text-xs text-slate-600">
                      {LOCKED_EMAIL_REASON}
                    </span>
                  )}
                </th>
                <td className="px-2 py-2 text-center">
                  <input
                    type="checkbox"
                    className="size-5 accent-blue-700"
                    aria-label={`${NOTIFICATION_LABEL[type]} by email`}
                    checked={locked || shown(type, 'email', row.email)}
                    disabled={locked}
                    {...(locked ? { 'aria-describedby': `locked-${type}` } : {})}
                    onChange={(e) => toggle(type, 'email', e.target.checked)}
                  />
                </td>
                <td className="px-2 py-2 text-center">
                  <input
                    type="checkbox"
                    className="size-5 accent-blue-700"
                    aria-label={`${NOTIFICATION_LABEL[type]} as a browser notification`}
                    checked={shown(type, 'push', row.push)}
                    onChange={(e) => toggle(type, 'push', e.target.checked)}
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
