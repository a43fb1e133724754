export * from './state';
export * from './settle';
export * from './availability';
export * from './reconcile';
export * from './wire';
export * from './checkout';
export * from './refund';
