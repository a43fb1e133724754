// The zod-free half of the discount context (ADR 0020).
export * from './codes';
