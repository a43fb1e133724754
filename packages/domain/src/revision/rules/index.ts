// The zod-free half of the revision context, for the web app's eager chunks (ADR 0020).
export * from './states';
