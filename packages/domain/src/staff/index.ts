export * from './money';
export * from './wire';
