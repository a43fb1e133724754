// The zod-free half of the order-form context: the wizard's first step imports only this (ADR 0020, 0025).
export { USER_TYPE, type OrderFormValues, type Spacing, type UserType } from './values';
export * from './query';
export * from './form-fields';
export * from './checkout';
export * from './text-limits';
