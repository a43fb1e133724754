export * from './app-pages';
export * from './api-paths';
export * from './early-requests';
