import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TermsAcceptanceBody } from '@app/domain/auth';
import { apiFetch } from '@/lib/api-client';
import { customerKeys } from './keys';

const statusSchema = () => import('@app/domain/auth').then((m) => m.termsStatusSchema);

/** ADR 0085: the current versions of the Terms and Privacy Policy, and whether this customer accepted both. */
export const useTermsStatus = () =>
  useQuery({
    queryKey: customerKeys.terms(),
    queryFn: ({ signal }) => apiFetch('/api/en/customers/terms', { schema: statusSchema, signal }),
    staleTime: 5 * 60_000,
  });

/** ADR 0085: accept the versions shown (409 when they changed meanwhile: the status is read again). */
export const useAcceptTerms = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TermsAcceptanceBody) =>
      apiFetch('/api/en/customers/terms/acceptances', { method: 'POST', json: body, schema: statusSchema }),
    onSuccess: (status) => queryClient.setQueryData(customerKeys.terms(), status),
    onError: () => queryClient.invalidateQueries({ queryKey: customerKeys.terms() }),
  });
};
