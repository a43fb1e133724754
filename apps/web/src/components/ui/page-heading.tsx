import type { ReactNode } from 'react';
import { registerPageHeading, unregisterPageHeading } from '@/lib/route-focus';

/** The page's h1: after a route change the focus moves here (ADR 0042), so it takes focus from script only. */
export function PageHeading({ children }: { children: ReactNode }) {
  return (
    <h1
      tabIndex={-1}
      className="text-2xl font-semibold"
      ref={(element) => {
        if (!element) return;
        registerPageHeading(element);
        return () => unregisterPageHeading(element);
      }}
    >
      {children}
    </h1>
  );
}
