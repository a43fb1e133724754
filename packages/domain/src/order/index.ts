export * from './rules/index';
export * from './detail';
export * from './wire';
