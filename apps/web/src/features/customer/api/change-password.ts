import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { PasswordChangeBody } from '@app/domain/customer';
import { apiFetch } from '@/lib/api-client';
import { customerKeys } from './keys';

/** SPEC §7 PUT /api/en/customers/customer/password: every other session ends, this one stays (ADR 0053). */
export const changePassword = (body: PasswordChangeBody): Promise<unknown> =>
  apiFetch('/api/en/customers/customer/password', { method: 'PUT', json: body });

export const useChangePassword = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: customerKeys.sessions() }),
  });
};
