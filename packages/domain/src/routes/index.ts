export * from './app-pages';
