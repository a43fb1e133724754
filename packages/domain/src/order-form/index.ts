export * from './rules/index';
export * from './wire';
export * from './order-body';
export * from './submission';
