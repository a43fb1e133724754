/** Query keys of the payment feature (one factory per feature, DESIGN "Layout"). */
export const paymentKeys = {
  all: ['payment'] as const,
  status: (orderId: number) => [...paymentKeys.all, 'status', orderId] as const,
};
