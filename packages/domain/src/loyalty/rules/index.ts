export * from './points';
