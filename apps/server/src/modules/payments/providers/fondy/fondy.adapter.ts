import { createHash } from 'node:crypto';
import type { PaymentEventStatus } from '@app/domain';
import {
  ProviderError,
  SignatureError,
  parseFields,
  postJson,
  safeEqual,
  type PaymentEvent,
  type PaymentProvider,
  type SandboxCallback,
} from '../types';

/**
 * The parameters Fondy's protocol signs (docs.fondy.io / docs.flitt.com: the request parameters of
 * checkout/url and status/order_id, and the response and callback parameters). Only these count
 * (ADR 0036): a field outside the protocol is neither signed nor read, so nobody can slip one into the
 * signed string to shift the values after it.
 */
export const FONDY_SIGNED_FIELDS: ReadonlySet<string> = new Set([
  // request
  'version',
  'order_id',
  'merchant_id',
  'order_desc',
  'amount',
  'currency',
  'response_url',
  'server_callback_url',
  'lang',
  'lifetime',
  'merchant_data',
  'preauth',
  'sender_email',
  'delayed',
  'product_id',
  'payment_systems',
  'default_payment_system',
  'required_rectoken',
  'verification',
  'verification_type',
  'design_id',
  'subscription',
  'subscription_callback_url',
  'reservation_data',
  // response and callback
  'order_status',
  'response_status',
  'tran_type',
  'sender_cell_phone',
  'sender_account',
  'masked_card',
  'card_bin',
  'card_type',
  'rrn',
  'approval_code',
  'response_code',
  'response_description',
  'reversal_amount',
  'settlement_amount',
  'settlement_currency',
  'order_time',
  'settlement_date',
  'eci',
  'fee',
  'payment_system',
  'payment_id',
  'actual_amount',
  'actual_currency',
  'verification_status',
  'rectoken',
  'rectoken_lifetime',
  'additional_info',
  'parent_order_id',
  'checkout_url',
  'error_code',
  'error_message',
  'capture_status',
  'capture_amount',
]);

/**
 * Fondy's signature (docs.fondy.io "Signatures", reference/authentication): SHA1 over the payment key and
 * the non-empty values of the signed parameters in alphabetical order of their names, joined with '|'.
 * A value containing '|' would shift the boundaries between values, so it is refused (SignatureError).
 */
export const fondySignature = (params: Record<string, string | number | undefined | null>, secretKey: string): string => {
  const values = Object.keys(params)
    .filter((k) => FONDY_SIGNED_FIELDS.has(k))
    .sort()
    .map((k) => params[k])
    .filter((v): v is string | number => v !== undefined && v !== null && String(v) !== '')
    .map(String);
  if (values.some((v) => v.includes('|'))) throw new SignatureError('Invalid signature');
  return createHash('sha1')
    .update([secretKey, ...values].join('|'), 'utf8')
    .digest('hex');
};

/** Fondy's order_status values (created, processing, declined, approved, expired, reversed). */
const STATUS: Record<string, PaymentEventStatus> = {
  created: 'pending',
  processing: 'pending',
  approved: 'paid',
  declined: 'declined',
  expired: 'declined',
  reversed: 'refunded',
};

export interface FondyOptions {
  merchantId: string;
  secretKey: string;
  apiUrl: string;
  sandbox: boolean;
  sandboxPage: (paymentId: string) => string;
  /** How long one call to its API may take (ADR 0074). */
  timeoutMs?: number;
}

/** Fondy: the checkout URL API and its server callback (server_callback_url). */
export const createFondyProvider = (opts: FondyOptions): PaymentProvider => {
  const eventFrom = (fields: Record<string, string>): PaymentEvent | null => {
    const received = fields.signature ?? '';
    if (!received || !safeEqual(fondySignature(fields, opts.secretKey), received)) throw new SignatureError();
    if (fields.merchant_id !== opts.merchantId) throw new SignatureError('Unknown merchant');
    const status = STATUS[fields.order_status ?? ''];
    const paymentId = fields.order_id;
    if (!status || !paymentId) return null;
    // A reversal (refund or chargeback) names what went back in reversal_amount; amount stays the order's.
    const amount = Number(status === 'refunded' && Number(fields.reversal_amount) > 0 ? fields.reversal_amount : fields.amount);
    return {
      eventId: `${fields.payment_id || paymentId}:${fields.order_status ?? ''}`,
      paymentId,
      status,
      amountCents: Number.isSafeInteger(amount) ? amount : null,
      currency: fields.currency ?? null,
    };
  };

  return {
    name: 'fondy',
    sandbox: opts.sandbox,
    callbackAnswer: { contentType: 'application/json', body: JSON.stringify({ status: 'ok' }) },

    async createPayment({ payment, order, returnUrls }) {
      if (opts.sandbox) return { redirectUrl: opts.sandboxPage(payment.id) };
      const request: Record<string, string | number> = {
        merchant_id: opts.merchantId,
        order_id: payment.id,
        order_desc: `Order ${order.id}`,
        amount: payment.amountCents,
        currency: payment.currency,
        // Fondy posts the buyer back here (a browser POST): our return route answers with the redirect.
        response_url: returnUrls.serverReturn,
        server_callback_url: returnUrls.callback,
      };
      request.signature = fondySignature(request, opts.secretKey);
      const answer = (await postJson(`${opts.apiUrl}/checkout/url/`, { request }, {}, opts.timeoutMs)) as {
        response?: { response_status?: string; checkout_url?: string; error_message?: string };
      };
      const url = answer.response?.checkout_url;
      if (answer.response?.response_status !== 'success' || !url) {
        throw new ProviderError(`Fondy refused the checkout: ${answer.response?.error_message ?? 'no checkout_url'}`);
      }
      return { redirectUrl: url };
    },

    async verifyCallback(request) {
      let fields: Record<string, string>;
      try {
        fields = parseFields(request.rawBody, request.headers['content-type']);
      } catch {
        throw new SignatureError();
      }
      return eventFrom(fields);
    },

    async queryStatus(payment) {
      if (opts.sandbox) return null;
      const request: Record<string, string> = { order_id: payment.id, merchant_id: opts.merchantId };
      request.signature = fondySignature(request, opts.secretKey);
      const answer = (await postJson(`${opts.apiUrl}/status/order_id`, { request }, {}, opts.timeoutMs)) as {
        response?: Record<string, unknown>;
      };
      const fields: Record<string, string> = {};
      for (const [k, v] of Object.entries(answer.response ?? {})) {
        if (v !== null && v !== undefined) fields[k] = typeof v === 'object' ? JSON.stringify(v) : String(v as string | number);
      }
      if (fields.response_status !== 'success') return null;
      return eventFrom(fields);
    },

    sandboxCallback(payment, outcome): SandboxCallback {
      // A Fondy-like payment id, stable per attempt, so a replayed callback is the same event.
      const fondyPaymentId = String(parseInt(createHash('sha1').update(payment.id).digest('hex').slice(0, 8), 16));
      const fields: Record<string, string> = {
        order_id: payment.id,
        merchant_id: opts.merchantId,
        amount: String(payment.amountCents),
        currency: payment.currency,
        actual_amount: String(payment.amountCents),
        actual_currency: payment.currency,
        order_status: outcome === 'paid' ? 'approved' : 'declined',
        response_status: 'success',
        tran_type: 'purchase',
        payment_id: fondyPaymentId,
        order_time: payment.createdAt.toISOString(),
      };
      fields.signature = fondySignature(fields, opts.secretKey);
      return {
        method: 'POST',
        search: '',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields).toString(),
      };
    },
  };
};
