// The zod-free half of the admin context (ADR 0020, 0090).
export * from './codes-prices-audit';
