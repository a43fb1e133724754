import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import type { Urgency } from '@app/domain/catalogue';
import type { UpgradeBody, UpgradeCreated, UpgradeQuote } from '@app/domain/upgrade';
import { apiFetch } from '@/lib/api-client';
import { orderKeys } from '@/lib/resources/orders';

const quoteSchema = () => import('@app/domain/upgrade').then((m) => m.upgradeQuoteSchema);
const createdSchema = () => import('@app/domain/upgrade').then((m) => m.upgradeCreatedSchema);
const urgenciesSchema = () => import('@app/domain/catalogue').then((m) => m.urgencySchema.array());

/** ADR 0086: the upgrade dialog's keys, under the order's (a change to the order makes them stale too). */
const upgradeKeys = {
  quote: (orderId: number, body: UpgradeBody) => [...orderKeys.detail(orderId), 'upgrade-quote', body] as const,
  urgencies: (idSite: number) => [...orderKeys.all, 'upgrade-urgencies', idSite] as const,
};

/** CONTRACT "After payment": `PUT …/orders/{id}/upgrade/calcs` → the difference (the server's one price function). */
export const useUpgradeQuote = (orderId: number, body: UpgradeBody, enabled: boolean) =>
  useQuery<UpgradeQuote>({
    queryKey: upgradeKeys.quote(orderId, body),
    queryFn: ({ signal }) =>
      apiFetch(`/api/en/orders/${orderId}/upgrade/calcs`, { method: 'PUT', json: body, schema: quoteSchema, signal }),
    enabled,
    retry: false,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

/** CONTRACT: `GET /api/en/sites/{idSite}/orders/urgencies`, for the shorter deadlines on offer. */
export const useSiteUrgencies = (idSite: number) =>
  useQuery<Urgency[]>({
    queryKey: upgradeKeys.urgencies(idSite),
    queryFn: () => apiFetch(`/api/en/sites/${idSite}/orders/urgencies`, { auth: false, schema: urgenciesSchema }),
    staleTime: 10 * 60_000,
  });

/** `POST …/orders/{id}/upgrade`: the upgrade to pay (the same upgrade again answers the open one). */
export const useCreateUpgrade = (orderId: number) =>
  useMutation<UpgradeCreated, Error, UpgradeBody>({
    mutationFn: (body) => apiFetch(`/api/en/orders/${orderId}/upgrade`, { method: 'POST', json: body, schema: createdSchema }),
  });
