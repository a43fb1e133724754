import { Outlet } from 'react-router';
import { Startup } from '../startup';

/** Every route waits for the startup (SPEC §2). */
export function RootLayout() {
  return (
    <Startup>
      <Outlet />
    </Startup>
  );
}
