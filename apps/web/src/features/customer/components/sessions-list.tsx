import { Monitor } from 'lucide';
import { CUSTOMER_MESSAGE, groupSessionsByDevice, type DeviceGroup } from '@app/domain/customer';
import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icon';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { useEndOtherSessions, useEndSessions, useSessions } from '../api/sessions';

const sessionsWord = (n: number): string => (n === 1 ? '1 session' : `${n} sessions`);

/** ADR 0097: one row per device; its "sign out" ends every session of it (on this device, all but this one). */
function DeviceItem({ group }: { group: DeviceGroup }) {
  const end = useEndSessions();
  const count = group.sessions.length;
  const [latest] = group.sessions;
  const ips = [...new Set(group.sessions.map((s) => s.ip || 'unknown'))];
  const lastSeen = formatDateTime(group.lastSeenAt);
  const label = group.current
    ? `Sign out the others: ${sessionsWord(group.endable.length)} of ${group.device}`
    : `Sign out ${group.device}${count > 1 ? `, ${sessionsWord(count)}` : ''}, last seen ${lastSeen}`;
  return (
    <li className="flex flex-col gap-3 py-3 sm:flex-row sm:items-center" data-testid="device-row">
      <Icon icon={Monitor} className="hidden size-6 shrink-0 text-slate-600 sm:block" />
      <div className="min-w-0 flex-1 text-sm">
        <p className="font-medium text-slate-900">
          {group.device}
          {group.current && (
            <span className="ml-2 rounded bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-900">This device</span>
          )}
          {count > 1 && (
            <span className="ml-2 rounded bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-800" data-testid="device-sessions">
              {sessionsWord(count)}
            </span>
          )}
        </p>
        <p className="break-words text-slate-700">
          IP {ips.join(', ')} · last seen {lastSeen}
          {count === 1 && latest && <> · signed in {formatDateTime(latest.signedInAt)}</>}
        </p>
      </div>
      {group.endable.length > 0 && (
        <Button
          variant="secondary"
          busy={end.isPending}
          aria-label={label}
          onClick={() =>
            end.mutate(group.endable, {
              onSuccess: () => toast.success(CUSTOMER_MESSAGE.sessionsEnded(group.endable.length)),
              onError: (error) => toast.error(errorMessage(error)),
            })
          }
        >
          {group.current ? 'Sign out the others' : 'Sign out'}
        </Button>
      )}
    </li>
  );
}

/** ADR 0053 (beyond SPEC): the signed-in devices; one or every other can be signed out at once. */
export function SessionsList() {
  const sessions = useSessions();
  const endOthers = useEndOtherSessions();
  if (sessions.isPending)
    return (
      <p role="status" className="flex items-center gap-2 text-sm text-slate-700">
        <Spinner /> Loading sessions
      </p>
    );
  if (sessions.isError) return <p className="text-sm text-red-700">{errorMessage(sessions.error)}</p>;
  const others = sessions.data.filter((s) => !s.current).length;
  return (
    <div className="flex flex-col gap-2">
      <ul aria-label="Signed-in devices" className="divide-y divide-slate-200">
        {groupSessionsByDevice(sessions.data).map((group) => (
          <DeviceItem key={group.device} group={group} />
        ))}
      </ul>
      {others > 0 && (
        <div>
          <Button
            variant="secondary"
            busy={endOthers.isPending}
            onClick={() =>
              endOthers.mutate(undefined, {
                onSuccess: () => toast.success(CUSTOMER_MESSAGE.otherSessionsEnded),
                onError: (error) => toast.error(errorMessage(error)),
              })
            }
          >
            Sign out all other devices
          </Button>
        </div>
      )}
    </div>
  );
}
