import { createHash } from 'node:crypto';
import type { PaymentEventStatus } from '@app/domain';
import {
  ProviderError,
  SignatureError,
  centsToDecimal,
  decimalToCents,
  getJson,
  postJson,
  safeEqual,
  type PaymentEvent,
  type PaymentProvider,
  type SandboxCallback,
} from '../types';

/** paycore.io callbacks (docs.paycore.io/getting-started/webhooks): X-Signature = base64(sha1(secret . body . secret)). */
export const paycoreSignature = (rawBody: string, secretKey: string): string =>
  createHash('sha1')
    .update(secretKey + rawBody + secretKey, 'utf8')
    .digest('base64');

/** Payment invoice statuses. */
const STATUS: Record<string, PaymentEventStatus> = {
  created: 'pending',
  processing: 'pending',
  process_pending: 'pending',
  processed: 'paid',
  process_failed: 'declined',
  expired: 'declined',
  refunded: 'refunded',
};

/** A payment invoice (JSON:API document) as callbacks and the invoice read carry it, normalised; null when it is not ours or not a state we know. */
const invoiceEvent = (doc: InvoiceDocument): PaymentEvent | null => {
  const a = doc.data?.attributes;
  const status = STATUS[a?.status ?? ''];
  if (!status || !a?.reference_id || !doc.data?.id) return null;
  const amountCents = a.amount === undefined ? null : decimalToCents(a.amount);
  return {
    // The callback of the same invoice state has the same id: whichever comes first applies, once.
    eventId: `${doc.data.id}:${a.status ?? ''}`,
    paymentId: a.reference_id,
    status,
    // An amount that does not parse can never match: the event parks or is refused.
    amountCents: amountCents ?? -1,
    currency: a.currency ?? null,
  };
};

interface InvoiceDocument {
  data?: {
    id?: string;
    type?: string;
    attributes?: {
      status?: string;
      amount?: number | string;
      currency?: string;
      reference_id?: string;
      hpp_url?: string;
      flow_data?: { action?: string; method?: string; params?: Record<string, string> };
    };
  };
}

export interface PaycoreOptions {
  publicKey: string;
  secretKey: string;
  apiUrl: string;
  service: string | undefined;
  sandbox: boolean;
  sandboxPage: (paymentId: string) => string;
  /** How long one call to its API may take (ADR 0074). */
  timeoutMs?: number;
}

/** paycore.io: a payment invoice created by the server (public API), the buyer redirected to its hosted page. */
export const createPaycoreProvider = (opts: PaycoreOptions): PaymentProvider => ({
  name: 'paycore',
  sandbox: opts.sandbox,
  callbackAnswer: { contentType: 'application/json', body: JSON.stringify({ status: 'ok' }) },

  async createPayment({ payment, order, returnUrls }) {
    if (opts.sandbox) return { redirectUrl: opts.sandboxPage(payment.id) };
    const answer = (await postJson(
      `${opts.apiUrl}/public-api/payment-invoices`,
      {
        public_key: opts.publicKey,
        reference_id: payment.id,
        description: `Order ${order.id}`,
        ...(opts.service ? { service: opts.service } : {}),
        currency: payment.currency,
        amount: Number(centsToDecimal(payment.amountCents)),
        return_url: returnUrls.success,
        return_urls: { success: returnUrls.success, fail: returnUrls.fail },
        callback_url: returnUrls.callback,
      },
      {},
      opts.timeoutMs,
    )) as InvoiceDocument;
    const attributes = answer.data?.attributes;
    const flow = attributes?.flow_data;
    const hosted =
      attributes?.hpp_url ??
      (flow?.action && (flow.method ?? 'GET').toUpperCase() === 'GET'
        ? `${flow.action}${flow.params && Object.keys(flow.params).length > 0 ? `?${new URLSearchParams(flow.params).toString()}` : ''}`
        : undefined);
    if (!hosted || !answer.data?.id) throw new ProviderError('paycore.io answered no hosted page for the invoice');
    return { redirectUrl: hosted, providerRef: answer.data.id };
  },

  async verifyCallback(request) {
    const received = request.headers['x-signature'] ?? '';
    if (!received || !safeEqual(paycoreSignature(request.rawBody, opts.secretKey), received)) throw new SignatureError();
    let doc: InvoiceDocument;
    try {
      doc = JSON.parse(request.rawBody) as InvoiceDocument;
    } catch {
      return null;
    }
    return invoiceEvent(doc);
  },

  /**
   * ADR 0058: the invoice read of paycore.io's Commerce private API,
   * `GET {PAYCORE_API_URL}/payment-invoices/{invoice id}` with the account's secret key as the bearer
   * token; the answer is the same invoice document its callbacks carry. It is trusted as PayPal's order
   * read is: TLS to the configured host and our credential; its `reference_id` must be this attempt, and
   * its amount and currency go through the callbacks' checks. The sandbox never gets here (its state is
   * our own record).
   */
  async queryStatus(payment) {
    if (opts.sandbox || !payment.providerRef) return null;
    const doc = (await getJson(
      `${opts.apiUrl}/payment-invoices/${encodeURIComponent(payment.providerRef)}`,
      { authorization: `Bearer ${opts.secretKey}`, accept: 'application/vnd.api+json, application/json' },
      opts.timeoutMs,
    )) as InvoiceDocument | null;
    if (!doc) return null;
    const event = invoiceEvent(doc);
    if (!event || event.paymentId !== payment.id || doc.data?.id !== payment.providerRef) return null;
    return event;
  },

  sandboxCallback(payment, outcome): SandboxCallback {
    const invoiceId = `cpi_${createHash('sha1').update(payment.id).digest('hex').slice(0, 16)}`;
    const body = JSON.stringify({
      data: {
        type: 'payment-invoices',
        id: invoiceId,
        attributes: {
          status: outcome === 'paid' ? 'processed' : 'process_failed',
          amount: Number(centsToDecimal(payment.amountCents)),
          currency: payment.currency,
          reference_id: payment.id,
          test_mode: true,
        },
      },
    });
    return {
      method: 'POST',
      search: '',
      headers: { 'content-type': 'application/json', 'x-signature': paycoreSignature(body, opts.secretKey) },
      body,
    };
  },
});
