import { useQuery } from '@tanstack/react-query';
import type { ConsentHistory } from '@app/domain/customer';
import { apiFetch } from '@/lib/api-client';
import { customerKeys } from './keys';

/** ADR 0097: the newest consent changes (date, flag, old → new), shown in the privacy modal. */
const getConsentHistory = (): Promise<ConsentHistory> =>
  apiFetch('/api/en/customers/customer/consent-history', {
    schema: () => import('@app/domain/customer').then((m) => m.consentHistorySchema),
  });

export const useConsentHistory = () => useQuery({ queryKey: customerKeys.consentHistory(), queryFn: getConsentHistory });
