export * from './cancel-dispute';
