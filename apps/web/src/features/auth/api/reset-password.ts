import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

export interface ResetPasswordInput {
  token: string;
  password: string;
}

/** CONTRACT "Identity": PUT /api/en/auth/password/reset { token, password }. */
export const resetPassword = (input: ResetPasswordInput): Promise<unknown> =>
  apiFetch('/api/en/auth/password/reset', { method: 'PUT', auth: false, json: input });

export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
