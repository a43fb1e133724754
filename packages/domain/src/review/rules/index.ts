// The zod-free half of the review context, for the web app's eager chunks (ADR 0020).
export * from './rating';
