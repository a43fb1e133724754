import { useEffect, useRef } from 'react';
import { useSearchParams } from 'wouter';
import { CUSTOMER_MESSAGE } from '@app/domain/customer';
import { toast } from '@/components/ui/toast';
import { QUERY_PARAM } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { useConfirmEmail } from '../api/confirm-email';

/**
 * CONTRACT "Identity": /profile?confirmEmail={token} confirms the email once, tells the customer, and
 * leaves the address bar clean so a reload does not spend the token again.
 */
export const useConfirmEmailParam = (): void => {
  const [searchParams, setSearchParams] = useSearchParams();
  const token = searchParams.get(QUERY_PARAM.confirmEmail);
  const confirm = useConfirmEmail();
  const handled = useRef<string | null>(null);
  const { mutate } = confirm;

  useEffect(() => {
    if (token === null || handled.current === token) return;
    handled.current = token;
    mutate(token, {
      // ADR 0038: a confirmation that removed a password set before the mailbox was proven says so instead.
      onSuccess: (data) => {
        const notice =
          typeof data === 'object' && data !== null && 'message' in data && typeof data.message === 'string' ? data.message : null;
        if (notice) toast.show(notice);
        else toast.success(CUSTOMER_MESSAGE.emailConfirmed);
      },
      onError: (error) => toast.error(errorMessage(error)),
    });
    setSearchParams(
      (params) => {
        params.delete(QUERY_PARAM.confirmEmail);
        return params;
      },
      { replace: true },
    );
  }, [token, mutate, setSearchParams]);
};
