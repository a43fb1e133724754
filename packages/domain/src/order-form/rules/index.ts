// The zod-free half of the order-form context: the wizard's first step imports only this (ADR 0020, 0025).
export type { OrderFormValues, Spacing } from './values';
export * from './query';
export * from './form-fields';
export * from './checkout';
