import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { customerKeys } from './keys';

/** CONTRACT "Identity": the emailed link opens /profile?confirmEmail={token}; the app confirms it here. */
export const confirmEmail = (token: string): Promise<unknown> =>
  apiFetch('/api/en/customers/customer/emails/confirm', { method: 'PUT', json: { token } });

export const useConfirmEmail = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmEmail,
    onSettled: () => queryClient.invalidateQueries({ queryKey: customerKeys.current() }),
  });
};
