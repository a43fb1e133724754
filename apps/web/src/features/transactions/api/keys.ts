/** Query keys of the transactions feature (one factory per feature, DESIGN "Layout"). */
export const transactionKeys = {
  all: ['transactions'] as const,
  page: (page: number, limit: number) => [...transactionKeys.all, 'page', page, limit] as const,
  years: () => [...transactionKeys.all, 'receipt-years'] as const,
};
