import { useEffect, useRef } from 'react';
import { useSearchParams } from 'wouter';
import { toast } from '@/components/ui/toast';
import { QUERY_PARAM } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { useConfirmEmailChange } from '../api/change-email';

/**
 * ADR 0097: /profile?changeEmail={token} (the link mailed to the new address) changes the email once, says
 * so, and leaves the address bar clean so a reload does not send the token again.
 */
export const useChangeEmailParam = (): void => {
  const [searchParams, setSearchParams] = useSearchParams();
  const token = searchParams.get(QUERY_PARAM.changeEmail);
  const { mutate } = useConfirmEmailChange();
  const handled = useRef<string | null>(null);

  useEffect(() => {
    if (token === null || handled.current === token) return;
    handled.current = token;
    mutate(token, {
      onSuccess: (data) => toast.success(data.message),
      onError: (error) => toast.error(errorMessage(error)),
    });
    setSearchParams(
      (params) => {
        params.delete(QUERY_PARAM.changeEmail);
        return params;
      },
      { replace: true },
    );
  }, [token, mutate, setSearchParams]);
};
