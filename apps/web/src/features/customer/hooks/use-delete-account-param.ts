import { useEffect, useRef } from 'react';
import { useLocation, useSearchParams } from 'wouter';
import { CUSTOMER_MESSAGE } from '@app/domain/customer';
import { ACCOUNT_DELETION_REDIRECT_MS } from '@app/domain/ui';
import { toast } from '@/components/ui/toast';
import { paths, QUERY_PARAM } from '@/config/paths';
import { errorMessage, holdSessionEnd } from '@/lib/api-client';
import { useConfirmDeletion } from '../api/deactivate';

/**
 * ADR 0070: /profile?deleteAccount={token}, the link mailed to an account without a password, deletes the
 * account with this session (SPEC §8's success text, then /logout after 3 s, SPEC §9), or says why not. The
 * address bar is cleaned so a reload does not send the token again.
 */
export const useDeleteAccountParam = (): void => {
  const [searchParams, setSearchParams] = useSearchParams();
  const [, navigate] = useLocation();
  const token = searchParams.get(QUERY_PARAM.deleteAccount);
  const { mutate } = useConfirmDeletion();
  const handled = useRef<string | null>(null);
  const timer = useRef<number | undefined>(undefined);
  // The deletion closes this tab's chat socket (ADR 0069): that end of the session does not move the app
  // before the 3 s are over (lib/api-client `holdSessionEnd`).
  const held = useRef<((leftByItself: boolean) => void) | null>(null);
  useEffect(
    () => () => {
      window.clearTimeout(timer.current);
      held.current?.(false);
    },
    [],
  );

  useEffect(() => {
    if (token === null || handled.current === token) return;
    handled.current = token;
    const release = (leftByItself: boolean) => {
      held.current?.(leftByItself);
      held.current = null;
    };
    held.current = holdSessionEnd();
    mutate(token, {
      onSuccess: () => {
        toast.success(CUSTOMER_MESSAGE.accountDeleted);
        timer.current = window.setTimeout(() => {
          navigate(paths.logout, { replace: true });
          release(true);
        }, ACCOUNT_DELETION_REDIRECT_MS);
      },
      onError: (error) => {
        release(false);
        toast.error(errorMessage(error, CUSTOMER_MESSAGE.deletionFailed));
      },
    });
    setSearchParams(
      (params) => {
        params.delete(QUERY_PARAM.deleteAccount);
        return params;
      },
      { replace: true },
    );
  }, [token, mutate, navigate, setSearchParams]);
};
