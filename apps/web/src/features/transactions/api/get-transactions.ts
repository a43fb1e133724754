import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { TRANSACTIONS_PAGE_SIZE } from '@app/domain/order/rules';
import type { TransactionList } from '@app/domain/transaction';
import { apiFetch } from '@/lib/api-client';
import { transactionKeys } from './keys';

/** CONTRACT "Paths": GET /api/en/customers/transactions?page&limit → { transactions, total }. */
export const getTransactions = (page: number, limit: number, signal?: AbortSignal): Promise<TransactionList> =>
  apiFetch(`/api/en/customers/transactions?${new URLSearchParams({ page: String(page), limit: String(limit) }).toString()}`, {
    schema: () => import('@app/domain/transaction').then((m) => m.transactionListSchema),
    ...(signal ? { signal } : {}),
  });

/** One page of 16 (SPEC §9); the previous page stays on screen while the next one loads. */
export const useTransactions = (page: number) =>
  useQuery({
    queryKey: transactionKeys.page(page, TRANSACTIONS_PAGE_SIZE),
    queryFn: ({ signal }) => getTransactions(page, TRANSACTIONS_PAGE_SIZE, signal),
    placeholderData: keepPreviousData,
  });
