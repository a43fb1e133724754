export * from './strip-html';
export * from './length';
