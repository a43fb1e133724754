export * from './phone-countries';
