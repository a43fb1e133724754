import { useMutation } from '@tanstack/react-query';
import { useLocation } from 'wouter';
import { paths } from '@/config/paths';
import { apiFetch } from '@/lib/api-client';
import { tokenStorage } from '@/lib/storage';

/** CONTRACT "Identity": revoke the refresh token (sent as the bearer); a failure changes nothing for the user. */
export const revokeRefreshToken = async (): Promise<void> => {
  const { refreshToken } = tokenStorage.read();
  if (refreshToken === null) return;
  await apiFetch('/api/en/auth/jwt/logout', { method: 'POST', bearer: refreshToken }).catch(() => undefined);
};

/** SPEC §8: logout goes to /order?full when on the order wizard, otherwise to /login. */
export const logoutTarget = (pathname: string): string => (pathname === paths.order ? paths.orderFull : paths.login);

/**
 * UI contract "Logout": revoke, clear both tokens, clear the query cache (`clearCache`, given by the app,
 * which knows what outlives a session), then leave.
 */
export const useLogout = (clearCache: () => void) => {
  const [pathname, navigate] = useLocation();
  return useMutation({
    mutationFn: revokeRefreshToken,
    onSettled: () => {
      tokenStorage.clear();
      clearCache();
      navigate(logoutTarget(pathname), { replace: true });
    },
  });
};
