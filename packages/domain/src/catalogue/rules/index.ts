// The zod-free half of the catalogue context (ADR 0020).
export * from './kinds-and-urgencies';
