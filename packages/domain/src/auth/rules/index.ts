export * from './accounts';
export * from './terms';
