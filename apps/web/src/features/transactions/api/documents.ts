import { useQuery } from '@tanstack/react-query';
import { documentFileName } from '@app/domain/transaction/rules';
import { apiFetch } from '@/lib/api-client';
import { downloadFrom } from '@/lib/download';
import { transactionKeys } from './keys';

/** CONTRACT "After payment": the transaction's receipt or credit note, a numbered PDF (ADR 0085). */
export const downloadDocument = (transactionId: number, document: { kind: 'receipt' | 'credit_note'; number: string }): Promise<void> =>
  downloadFrom(`/api/en/customers/transactions/${transactionId}/receipt`, documentFileName(document.kind, document.number));

/** Every receipt and credit note of a year, as one ZIP (ADR 0085). */
export const downloadYear = (year: number): Promise<void> =>
  downloadFrom(`/api/en/customers/receipts.zip?year=${year}`, `receipts-${year}.zip`);

/** The years the customer has documents in, newest first. */
export const useReceiptYears = () =>
  useQuery({
    queryKey: transactionKeys.years(),
    queryFn: ({ signal }) =>
      apiFetch('/api/en/customers/receipts/years', {
        schema: () => import('@app/domain/transaction').then((m) => m.receiptYearsSchema),
        signal,
      }),
  });
