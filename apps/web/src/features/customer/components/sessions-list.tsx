import { Monitor } from 'lucide';
import { CUSTOMER_MESSAGE, type Session } from '@app/domain/customer';
import { Button } from '@/components/ui/button';
import { Icon } from '@/components/ui/icon';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/toast';
import { errorMessage } from '@/lib/api-client';
import { formatDateTime } from '@/lib/dates';
import { useEndOtherSessions, useEndSession, useSessions } from '../api/sessions';

function SessionItem({ session }: { session: Session }) {
  const end = useEndSession();
  return (
    <li className="flex flex-col gap-3 py-3 sm:flex-row sm:items-center">
      <Icon icon={Monitor} className="hidden size-6 shrink-0 text-slate-600 sm:block" />
      <div className="flex-1 text-sm">
        <p className="font-medium text-slate-900">
          {session.device}
          {session.current && (
            <span className="ml-2 rounded bg-emerald-100 px-2 py-0.5 text-xs font-medium text-emerald-900">This device</span>
          )}
        </p>
        <p className="text-slate-700">
          IP {session.ip || 'unknown'} · last seen {formatDateTime(session.lastSeenAt)} · signed in {formatDateTime(session.signedInAt)}
        </p>
      </div>
      {!session.current && (
        <Button
          variant="secondary"
          busy={end.isPending}
          aria-label={`Sign out ${session.device}, last seen ${formatDateTime(session.lastSeenAt)}`}
          onClick={() =>
            end.mutate(session.id, {
              onSuccess: () => toast.success(CUSTOMER_MESSAGE.sessionEnded),
              onError: (error) => toast.error(errorMessage(error)),
            })
          }
        >
          Sign out
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
        {sessions.data.map((session) => (
          <SessionItem key={session.id} session={session} />
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
