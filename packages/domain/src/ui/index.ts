export * from './timing';
export * from './skeleton';
