export * from './messages';
export * from './access';
