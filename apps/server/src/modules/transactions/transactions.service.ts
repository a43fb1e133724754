import { centsToAmount, type TransactionList } from '@app/domain';
import type { createTransactionsRepo } from './transactions.repo';

export const createTransactionsService = ({ repo }: { repo: ReturnType<typeof createTransactionsRepo> }) => ({
  /** CONTRACT "Paths": the customer's payments and refunds, newest first, one page. */
  async list({ customerId, page, limit }: { customerId: number; page: number; limit: number }): Promise<TransactionList> {
    const { transactions, total } = await repo.list({ customerId, limit, offset: (page - 1) * limit });
    return {
      transactions: transactions.map((t) => ({
        id: t.id,
        date: t.createdAt.toISOString(),
        orderId: t.orderId,
        orderTitle: t.orderTitle,
        provider: t.provider,
        amount: centsToAmount(t.amountCents),
        type: t.type,
        status: t.status,
        sandbox: t.sandbox,
      })),
      total,
    };
  },
});
export type TransactionsService = ReturnType<typeof createTransactionsService>;
