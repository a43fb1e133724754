// The zod-free half of the after-payment context, for the web app's eager chunks (ADR 0020).
export * from './after-payment';
