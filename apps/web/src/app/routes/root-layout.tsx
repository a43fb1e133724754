import type { ReactNode } from 'react';
import { Startup } from '../startup';

/** Every route waits for the startup (SPEC §2). */
export function RootLayout({ children }: { children: ReactNode }) {
  return <Startup>{children}</Startup>;
}
