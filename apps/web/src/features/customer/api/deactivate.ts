import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';

/** SPEC §7 PUT /api/en/customers/customer/deactivate: deletes the account (needs a confirmed email, SPEC §6). */
export const deactivateAccount = (): Promise<unknown> => apiFetch('/api/en/customers/customer/deactivate', { method: 'PUT' });

export const useDeactivateAccount = () => useMutation({ mutationFn: deactivateAccount });
