import { useEffect } from 'react';
import { Link } from 'wouter';
import { useQueryClient } from '@tanstack/react-query';
import { paths } from '@/config/paths';
import { revokeRefreshToken } from '@/features/auth/api/logout';
import { tokenStorage } from '@/lib/storage';
import { clearSessionCache } from '../session';
import { StandalonePage } from './standalone-layout';

/** SPEC §2 "/logout: reached after account deletion". Arriving here with a session ends it. */
export function Component() {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!tokenStorage.hasAny()) return;
    void revokeRefreshToken().finally(() => {
      tokenStorage.clear();
      clearSessionCache(queryClient);
    });
  }, [queryClient]);

  return (
    <StandalonePage title="Signed out">
      <p>You have been signed out</p>
      <Link to={paths.login}>Sign in</Link>
    </StandalonePage>
  );
}
