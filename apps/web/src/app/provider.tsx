import { useEffect, type ReactNode } from 'react';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { TRANSPORT_MESSAGE } from '@app/domain/errors';
import { toast, Toaster } from '@/components/ui/toast';
import { paths } from '@/config/paths';
import { onBadResponse, onSessionEnd } from '@/lib/api-client';
import { clearSessionCache } from './session';

interface AppProviderProps {
  queryClient: QueryClient;
  /** Where the app goes when the session ends under it (the router's navigate). */
  navigate: (to: string) => void;
  children: ReactNode;
}

/**
 * SPEC §8 "Transport": when the refresh fails the user is logged out. The guards then send a signed-out
 * visitor to /login (keeping the wanted page); on the order wizard the target is /order?full.
 */
const useSessionEndHandling = (queryClient: QueryClient, navigate: (to: string) => void): void => {
  useEffect(
    () =>
      onSessionEnd(() => {
        clearSessionCache(queryClient);
        if (window.location.pathname === paths.order) navigate(paths.orderFull);
      }),
    [queryClient, navigate],
  );
};

/**
 * An answer the first paint used before its schema was loaded turned out not to fit it (ADR 0028): the
 * customer sees SPEC §8's transport message, the console says which answer.
 */
const useBadResponseHandling = (): void => {
  useEffect(
    () =>
      onBadResponse((error, path) => {
        console.error(`${path}: the answer does not fit its schema`, error.body);
        toast.error(TRANSPORT_MESSAGE.badResponse);
      }),
    [],
  );
};

export function AppProvider({ queryClient, navigate, children }: AppProviderProps) {
  useSessionEndHandling(queryClient, navigate);
  useBadResponseHandling();
  return (
    <QueryClientProvider client={queryClient}>
      {children}
      <Toaster />
    </QueryClientProvider>
  );
}
