import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useCurrentCustomer } from '@/features/customer/api/get-customer';
import { useSiteSettings } from '@/features/settings/api/get-site-settings';

/**
 * SPEC §2 "Startup order": once the customer is known, a chat socket connects (one per tab). Its code
 * (the chat engine, lib/chat) loads after the first paint; its events feed the chat resource in the cache,
 * which the navigation, the order page and the dashboard cards read.
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
      if (!cancelled) stop = startChatSession({ side: 'customer', queryClient, ownerId: customerId, http, ws });
    });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [queryClient, customerId, disabled, http, ws]);
  return null;
}
