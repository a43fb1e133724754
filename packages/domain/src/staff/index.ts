export * from './money';
export * from './wire';
export * from './backoffice';
export * from './rules/index';
