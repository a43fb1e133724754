import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

/** The deletion's answer (ADR 0070): deleted, or (an account without a password) a confirmation link mailed. */
export interface DeletionAnswer {
  message: string;
  confirmByEmail?: boolean;
}

/**
 * SPEC §7 PUT /api/en/customers/customer/deactivate: deletes the account (needs a confirmed email, SPEC §6)
 * with its password; an account without one sends none and is mailed a confirmation link (ADR 0070).
 */
export const deactivateAccount = (password: string | undefined): Promise<DeletionAnswer> =>
  apiFetch<DeletionAnswer>('/api/en/customers/customer/deactivate', { method: 'PUT', json: password === undefined ? {} : { password } });

export const useDeactivateAccount = () => useMutation({ mutationFn: deactivateAccount });

/** ADR 0070: the mailed link's token, spent with this session: the deletion happens now. */
export const confirmDeletion = (token: string): Promise<DeletionAnswer> =>
  apiFetch<DeletionAnswer>('/api/en/customers/customer/deactivate/confirm', { method: 'PUT', json: { token } });

export const useConfirmDeletion = () => useMutation({ mutationFn: confirmDeletion });
