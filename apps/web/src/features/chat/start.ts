import type { QueryClient } from '@tanstack/react-query';
import { ApiError } from '@/lib/api-client';
import { chatKeys } from './api/keys';
import { getAllUnread } from './api/messages';
import { startChatSession, type UnreadListener } from './socket/session';

/**
 * The startup socket (SPEC §2: once the customer is known, "a chat socket connects"). Loaded as its own
 * small chunk after the first paint, by the app's shell for a signed-in customer. Returns the stop.
 */
export const startChat = ({
  queryClient,
  customerId,
  http,
  ws,
  onUnread,
}: {
  queryClient: QueryClient;
  customerId: number;
  http?: string | undefined;
  ws?: string | undefined;
  /** each unread update (event 5), for the app to carry into other features' caches */
  onUnread?: UnreadListener;
}): (() => void) => {
  // The navigation's and the dashboard's counts (CONTRACT "Chat"); event 5 keeps them current.
  void queryClient.prefetchQuery({ queryKey: chatKeys.unreadAll(), queryFn: getAllUnread, staleTime: 60_000 });
  return startChatSession({
    queryClient,
    customerId,
    http,
    ws,
    onUnread,
    // After a 4401 any authenticated call renews the token (lib/api-client refreshes on 401); the
    // session is over only when that call itself ends in a 401.
    renewToken: () =>
      getAllUnread().then(
        () => true,
        (error: unknown) => !(error instanceof ApiError && error.status === 401),
      ),
  });
};
