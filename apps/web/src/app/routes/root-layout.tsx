import type { ReactNode } from 'react';
import { LiveRegion } from '@/components/layout/live-region';
import { Startup } from '../startup';

/** Every route waits for the startup (SPEC §2); the live region is there from the start (ADR 0042). */
export function RootLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <LiveRegion />
      <Startup>{children}</Startup>
    </>
  );
}
