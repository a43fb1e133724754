export * from './rules/index';
export * from './wire';
export * from './submission';
