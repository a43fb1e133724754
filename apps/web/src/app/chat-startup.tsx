import { useEffect } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { OrderList } from '@app/domain/order-list';
import { chatKeys } from '@/lib/chat/keys';
import { orderKeys } from '@/lib/resources/orders';
import { useCurrentCustomer } from '@/features/customer/api/get-customer';
import { useSiteSettings } from '@/features/settings/api/get-site-settings';

interface UnreadSummary {
  orders: { orderId: number; total: number }[];
}

/** The dashboard cards show each order's unread count: carried over from the chat's summary. */
const syncOrderListUnread = (queryClient: QueryClient): void => {
  const summary = queryClient.getQueryData<UnreadSummary>(chatKeys.unreadAll());
  if (!summary) return;
  const byOrder = new Map(summary.orders.map((o) => [o.orderId, o.total]));
  for (const [key, list] of queryClient.getQueriesData<OrderList>({ queryKey: orderKeys.lists() })) {
    if (!list || !list.orders.some((order) => order.unread !== (byOrder.get(order.id) ?? 0))) continue;
    queryClient.setQueryData<OrderList>(key, {
      ...list,
      orders: list.orders.map((order) => ({ ...order, unread: byOrder.get(order.id) ?? 0 })),
    });
  }
};

/**
 * SPEC §2 "Startup order": once the customer is known, a chat socket connects (one per tab). Its code
 * loads after the first paint; its events feed the cache, and unread updates reach the dashboard cards
 * and the navigation (the chat feature does not know the orders feature: they meet here).
 */
export function ChatStartup() {
  const queryClient = useQueryClient();
  const customer = useCurrentCustomer();
  const settings = useSiteSettings().data;
  const customerId = customer?.id ?? null;
  const disabled = settings?.disableOrderMessenger ?? true;
  const http = settings?.messages_url;
  const ws = settings?.baseWebSocketGatewayURL;

  useEffect(() => {
    if (customerId === null || disabled) return;
    let stop: (() => void) | null = null;
    let cancelled = false;
    void import('@/lib/chat/session').then(({ startChatSession }) => {
      if (cancelled) return;
      stop = startChatSession({
        side: 'customer',
        queryClient,
        ownerId: customerId,
        http,
        ws,
        onUnread: () => syncOrderListUnread(queryClient),
      });
    });
    // A list page that arrives (or the summary itself) is brought in line with the summary.
    const unsubscribe = queryClient.getQueryCache().subscribe((event) => {
      if (event.type !== 'updated' || event.action.type !== 'success') return;
      const [root, kind] = event.query.queryKey as unknown[];
      if ((root === orderKeys.all[0] && kind === 'list') || event.query.queryHash === JSON.stringify(chatKeys.unreadAll())) {
        syncOrderListUnread(queryClient);
      }
    });
    return () => {
      cancelled = true;
      unsubscribe();
      stop?.();
    };
  }, [queryClient, customerId, disabled, http, ws]);
  return null;
}
