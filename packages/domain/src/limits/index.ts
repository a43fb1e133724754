export * from './account-limits';
