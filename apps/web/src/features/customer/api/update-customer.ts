import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Customer, CustomerUpdateBody } from '@app/domain/customer';
import type { BillingDetails } from '@app/domain/transaction/rules';
import { apiFetch } from '@/lib/api-client';
import { CUSTOMER_PATH, loadCustomerSchema } from './get-customer';
import { customerKeys } from './keys';

/** SPEC §7: PUT /api/en/customers/customer; the answer is the updated profile. */
export const updateCustomer = (body: CustomerUpdateBody): Promise<Customer> =>
  apiFetch(CUSTOMER_PATH, { method: 'PUT', json: body, schema: loadCustomerSchema });

export const useUpdateCustomer = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateCustomer,
    onSuccess: (customer) => queryClient.setQueryData(customerKeys.current(), customer),
  });
};

/** ADR 0085: PUT /api/en/customers/customer/billing, the details printed on the next receipts. */
export const useUpdateBilling = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (billing: BillingDetails): Promise<Customer> =>
      apiFetch(`${CUSTOMER_PATH}/billing`, { method: 'PUT', json: billing, schema: loadCustomerSchema }),
    onSuccess: (customer) => queryClient.setQueryData(customerKeys.current(), customer),
  });
};
