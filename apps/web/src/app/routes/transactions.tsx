import { TransactionsList } from '@/features/transactions/components/transactions-list';

/** SPEC §2 "/transactions": the customer's payments and refunds (issue 4). */
export function Component() {
  return (
    <div className="flex flex-col gap-6">
      <h1 className="text-2xl font-semibold">Transactions</h1>
      <TransactionsList />
    </div>
  );
}
