// Calendar files (RFC 5545) for an order's deadline and a revision's due date (ADR 0044, 0045).
export * from './ics';
