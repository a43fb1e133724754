import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { EmailChangeBody } from '@app/domain/customer';
import { apiFetch } from '@/lib/api-client';
import { customerKeys } from './keys';

/** ADR 0097: asks for the change; the link goes to the new address, the email stays until it is used. */
const requestEmailChange = (body: EmailChangeBody): Promise<{ message: string; email: string }> =>
  apiFetch('/api/en/customers/customer/emails/change', { method: 'POST', json: body });

export const useRequestEmailChange = () => useMutation({ mutationFn: requestEmailChange });

/** ADR 0097: the link from the new address (/profile?changeEmail=…), spent with this session. */
const confirmEmailChange = (token: string): Promise<{ message: string }> =>
  apiFetch('/api/en/customers/customer/emails/change/confirm', { method: 'PUT', json: { token } });

export const useConfirmEmailChange = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmEmailChange,
    onSettled: () => queryClient.invalidateQueries({ queryKey: customerKeys.current() }),
  });
};
