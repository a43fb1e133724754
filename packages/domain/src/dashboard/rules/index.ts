// The zod-free half of the dashboard context: rules the order list and the order page share (ADR 0020).
export * from './order-cards-and-filters';
