// The zod-free half of the files context (ADR 0020).
export * from './file-checks';
export * from './file-name';
