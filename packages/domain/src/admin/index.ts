export * from './rules';
export * from './wire';
