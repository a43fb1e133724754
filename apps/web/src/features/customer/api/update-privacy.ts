import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Customer, PrivacyBody } from '@app/domain/customer';
import { apiFetch } from '@/lib/api-client';
import { loadCustomerSchema } from './get-customer';
import { customerKeys } from './keys';

/** CONTRACT "Paths": PUT /api/en/customers/{id}/privacy with the six flags as booleans; the answer is the profile. */
export const updatePrivacy = ({ customerId, body }: { customerId: number; body: PrivacyBody }): Promise<Customer> =>
  apiFetch(`/api/en/customers/${customerId}/privacy`, { method: 'PUT', json: body, schema: loadCustomerSchema });

export const useUpdatePrivacy = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updatePrivacy,
    onSuccess: (customer) => {
      queryClient.setQueryData(customerKeys.current(), customer);
      // ADR 0097: the change is in the consent history the modal shows.
      return queryClient.invalidateQueries({ queryKey: customerKeys.consentHistory() });
    },
  });
};
