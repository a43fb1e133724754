// The zod-free half of the settings context, for the web app's first chunk (ADR 0020).
export * from './site';
export * from './theme';
export * from './color-scheme';
export * from './payment-systems';
