export * from './cents';
