export * from './rules/index';
export * from './signatures';
export * from './wire';
