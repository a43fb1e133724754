import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Session } from '@app/domain/customer';
import { ApiError, apiFetch } from '@/lib/api-client';
import { customerKeys } from './keys';

const SESSIONS_PATH = '/api/en/customers/customer/sessions';
const loadSessionListSchema = () => import('@app/domain/customer').then((m) => m.sessionListSchema);

/** ADR 0053: the signed-in devices of the account (one per refresh-token family), the current one marked. */
export const getSessions = async (): Promise<Session[]> => (await apiFetch(SESSIONS_PATH, { schema: loadSessionListSchema })).sessions;

export const useSessions = () => useQuery({ queryKey: customerKeys.sessions(), queryFn: getSessions });

/** Ends one session: its tokens stop working at once. */
export const endSession = (id: string): Promise<unknown> => apiFetch(`${SESSIONS_PATH}/${encodeURIComponent(id)}`, { method: 'DELETE' });

/** Ends every session but this one. */
export const endOtherSessions = (): Promise<unknown> => apiFetch(SESSIONS_PATH, { method: 'DELETE' });

/**
 * ADR 0097: ends the sessions of one merged device row, each through the one-session call. One already
 * ended elsewhere (404) is what was asked for; any other failure fails the whole.
 */
const endSessions = async (ids: readonly string[]): Promise<void> => {
  const results = await Promise.allSettled(ids.map((id) => endSession(id)));
  const failed = results.find(
    (r): r is PromiseRejectedResult => r.status === 'rejected' && !(r.reason instanceof ApiError && r.reason.status === 404),
  );
  if (failed) throw failed.reason;
};

export const useEndSessions = () => {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: endSessions, onSettled: () => queryClient.invalidateQueries({ queryKey: customerKeys.sessions() }) });
};

export const useEndOtherSessions = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endOtherSessions,
    onSettled: () => queryClient.invalidateQueries({ queryKey: customerKeys.sessions() }),
  });
};
