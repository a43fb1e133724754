import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

/** CONTRACT "Identity": POST /forgotpassword (form field `mail`) answers 0 on success, 1 for an unknown email. */
export const forgotPassword = (email: string): Promise<unknown> =>
  apiFetch('/forgotpassword', { method: 'POST', auth: false, form: { mail: email.trim() } });

export const useForgotPassword = () => useMutation({ mutationFn: forgotPassword });
