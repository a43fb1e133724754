import { StrictMode, useEffect, type ReactNode } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { Router } from 'wouter';
import { AppProvider } from './provider';
import { AppRoutes, type RouterHandle } from './router';

/** Runs `onMounted` once the whole tree is on screen (its effects run after every child's). */
function Mounted({ onMounted, children }: { onMounted?: () => void; children: ReactNode }) {
  useEffect(() => onMounted?.(), [onMounted]);
  return children;
}

export interface AppTreeProps {
  queryClient: QueryClient;
  handle: RouterHandle;
  /** On the server (ADR 0064): the page's path and query string, which the browser's location gives otherwise. */
  location?: { pathname: string; search: string };
  onMounted?: () => void;
}

/**
 * The whole app, the same element tree in the browser and in the server's render of a first page (ADR
 * 0064): the browser hydrates what the server drew only if both render the same tree.
 */
export function AppTree({ queryClient, handle, location, onMounted }: AppTreeProps) {
  return (
    <StrictMode>
      <AppProvider queryClient={queryClient} navigate={(to) => handle.navigate(to)}>
        <Router ssrPath={location?.pathname} ssrSearch={location?.search}>
          <Mounted onMounted={onMounted}>
            <AppRoutes handle={handle} />
          </Mounted>
        </Router>
      </AppProvider>
    </StrictMode>
  );
}
