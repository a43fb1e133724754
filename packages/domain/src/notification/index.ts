export * from './rules/index';
export * from './wire';
