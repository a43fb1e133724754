const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** A counter: at most `max` requests per `windowMs`; the next answers 429 with Retry-After. */
export interface RateLimit {
  max: number;
  windowMs: number;
}

/**
 * ADR 0073: the limits of the routes that cost real work, per signed-in account (on the routes without
 * one, per order or payment they work on). Counted in the one rate-limit store (Redis when configured, so every instance
 * shares them); past a limit 429 `{ message }` with Retry-After. The upload rate and the order creation
 * rate are settings (UPLOAD_RATE_PER_HOUR, ORDER_CREATE_RATE_PER_HOUR, ADR 0039); chat sends are
 * CHAT_SEND_BURST and CHAT_SEND_PER_MINUTE (ADR 0048); the auth calls AUTH_RATE_LIMIT_PER_MINUTE.
 */
export const ROUTE_RATE_LIMITS = {
  /** PUT …/orders/{id}: prices the order again and moves its money in one transaction. */
  orderEdit: { max: 60, windowMs: HOUR_MS },
  /**
   * GET …/orders/{id}/payment: may ask the provider's status API. The return page asks every 1.5 s for
   * up to a minute (40), so one page never meets the limit.
   */
  paymentStatus: { max: 60, windowMs: MINUTE_MS },
  /** GET …/customer/gdpr: reads the account's whole history and streams it. */
  personalDataReport: { max: 5, windowMs: HOUR_MS },
  /** PUT …/customer/password: an argon2 check and an argon2 hash (19 MiB each). */
  passwordChange: { max: 10, windowMs: HOUR_MS },
  /** File downloads (order, writer and revision files; chat attachments): up to 100 MB streamed each. */
  fileDownload: { max: 300, windowMs: HOUR_MS },
  /** Starting a checkout (no account: per order): a payment row and a call to the provider. */
  checkoutStart: { max: 30, windowMs: HOUR_MS },
  /** PayPal's return (no account: per payment attempt): a capture call to PayPal. */
  paymentReturn: { max: 30, windowMs: HOUR_MS },
  /** GET …/transactions/{id}/receipt: a PDF drawn from the document's snapshot (ADR 0085). */
  receiptDownload: { max: 120, windowMs: HOUR_MS },
  /** GET …/customers/receipts.zip?year=: every document of a year drawn and zipped (ADR 0085). */
  receiptsArchive: { max: 10, windowMs: HOUR_MS },
  /**
   * ADR 0084: a delivery, a proposed deadline, and the customer's answers to them (accept, ask for changes,
   * push the clock, answer a proposal): each locks the order, writes its timeline and may send mail.
   */
  afterPayment: { max: 60, windowMs: HOUR_MS },
  /** ADR 0086: PUT …/orders/{id}/upgrade/calcs: the upgrade dialog's live preview (prices the order twice). */
  upgradeQuote: { max: 600, windowMs: HOUR_MS },
  /** ADR 0086: POST …/orders/{id}/upgrade: locks the order, prices it, stores the upgrade. */
  upgradeCreate: { max: 30, windowMs: HOUR_MS },
  /** ADR 0097: POST …/customer/emails/change (an argon2 check, two mails) and its confirmation, each per account. */
  emailChange: { max: 10, windowMs: HOUR_MS },
  /** ADR 0088: an unsubscribe link (no account: per address): checks a signature and writes a preference. */
  unsubscribe: { max: 30, windowMs: HOUR_MS },
} as const satisfies Record<string, RateLimit>;
