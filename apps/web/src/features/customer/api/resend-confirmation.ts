import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

/** CONTRACT "Identity": POST …/emails/resend answers { "message": "Success" }. */
export const resendConfirmation = (): Promise<unknown> => apiFetch('/api/en/customers/customer/emails/resend', { method: 'POST' });

export const useResendConfirmation = () => useMutation({ mutationFn: resendConfirmation });
