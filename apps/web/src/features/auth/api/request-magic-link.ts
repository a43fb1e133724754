import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

/** CONTRACT "Identity": POST /api/magic_link (form field `email`); 404 when no such email. */
export const requestMagicLink = (email: string): Promise<unknown> =>
  apiFetch('/api/magic_link', { method: 'POST', auth: false, form: { email: email.trim(), target: 'dashboard' } });

export const useRequestMagicLink = () => useMutation({ mutationFn: requestMagicLink });
