// The dashboard context has no schema of its own: the list and detail shapes live in order-list and order.
export * from './rules/index';
