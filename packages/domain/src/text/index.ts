export * from './strip-html';
