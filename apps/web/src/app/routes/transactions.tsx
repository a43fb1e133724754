import { TransactionsList } from '@/features/transactions/components/transactions-list';
import { PageHeading } from '@/components/ui/page-heading';

/** SPEC §2 "/transactions": the customer's payments and refunds (ADR 0023). */
export function Component() {
  return (
    <div className="flex flex-col gap-6">
      <PageHeading>Transactions</PageHeading>
      <TransactionsList />
    </div>
  );
}
