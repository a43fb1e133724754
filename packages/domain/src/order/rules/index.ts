// The zod-free half of the order context, for the web app's eager chunks (ADR 0020).
export * from './statuses-and-limits';
export * from './transitions';
