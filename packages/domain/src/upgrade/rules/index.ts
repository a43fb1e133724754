// The zod-free half of the upgrade context, for the web app's eager chunks (ADR 0020, 0086).
export * from './upgrade';
