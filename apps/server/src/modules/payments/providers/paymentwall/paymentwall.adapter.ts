import { createHash } from 'node:crypto';
import type { PaymentEventStatus } from '@app/domain';
import {
  SignatureError,
  centsToDecimal,
  decimalToCents,
  getJson,
  parseFields,
  safeEqual,
  type PaymentEvent,
  type PaymentProvider,
  type SandboxCallback,
} from '../types';

/**
 * Paymentwall's signature versions 2 and 3 (docs.paymentwall.com/reference/signature-calculation):
 * MD5 (v2) or SHA-256 (v3) over "name=value" pairs sorted by name, concatenated, then the secret key.
 */
export const paymentwallSignature = (params: Record<string, string>, secretKey: string, version: 2 | 3): string => {
  const base =
    Object.keys(params)
      .filter((k) => k !== 'sig' && k !== 'sign')
      .sort()
      .map((k) => `${k}=${params[k] ?? ''}`)
      .join('') + secretKey;
  return createHash(version === 3 ? 'sha256' : 'md5')
    .update(base, 'utf8')
    .digest('hex');
};

/** Pingback types (docs.paymentwall.com/reference/pingback-home): 0 payment, 1 goodwill, 2 negative, 200-202 risk review. */
const TYPE: Record<string, PaymentEventStatus | null> = {
  '0': 'paid',
  '1': null,
  '2': 'refunded',
  '200': 'pending',
  '201': 'paid',
  '202': 'declined',
};

/** Paymentwall's Payment Status API answer (docs.paymentwall.com, "Payment Status"). */
interface PaymentStatusDocument {
  object?: string;
  /** The payment's reference, `ref` in its pingbacks. */
  id?: string | number;
  amount?: string | number;
  currency?: string;
  refunded?: boolean;
  /** `approved`, `pending` (under risk review) or `declined`. */
  risk?: string;
  uid?: string | number;
  /** Our attempt id (`ag_external_id` of the widget, `goodsid` of the pingback). */
  product_id?: string;
}

/** The pingback `type` a status answer stands for, so the pingback and the answer are one event. */
const STATUS_TYPE: Record<string, string> = { approved: '0', pending: '200', declined: '202' };

export interface PaymentwallOptions {
  projectKey: string;
  secretKey: string;
  apiUrl: string;
  widget: string;
  signVersion: 2 | 3;
  sandbox: boolean;
  sandboxPage: (paymentId: string) => string;
  /** How long one call to its API may take (ADR 0074). */
  timeoutMs?: number;
}

/** Paymentwall: a signed Digital Goods widget URL (non-stored product) and its pingback. */
export const createPaymentwallProvider = (opts: PaymentwallOptions): PaymentProvider => ({
  name: 'paymentwall',
  sandbox: opts.sandbox,
  // Paymentwall retries a pingback until it reads OK.
  callbackAnswer: { contentType: 'text/plain; charset=utf-8', body: 'OK' },

  async createPayment({ payment, order, returnUrls }) {
    if (opts.sandbox) return { redirectUrl: opts.sandboxPage(payment.id) };
    const params: Record<string, string> = {
      key: opts.projectKey,
      uid: String(payment.customerId),
      widget: opts.widget,
      amount: centsToDecimal(payment.amountCents),
      currencyCode: payment.currency,
      ag_name: `Order ${order.id}`,
      ag_external_id: payment.id,
      ag_type: 'fixed',
      success_url: returnUrls.success,
      failure_url: returnUrls.fail,
      pingback_url: returnUrls.callback,
      sign_version: String(opts.signVersion),
    };
    params.sign = paymentwallSignature(params, opts.secretKey, opts.signVersion);
    return { redirectUrl: `${opts.apiUrl}/subscription?${new URLSearchParams(params).toString()}` };
  },

  async verifyCallback(request) {
    // Pingbacks arrive by GET (the default) or POST (a project setting).
    const params = request.method === 'GET' ? request.query : parseFields(request.rawBody, request.headers['content-type']);
    // The configured version decides, never the one the request names (ADR 0036): a v3 project refuses
    // an MD5 (v2) pingback. Version 1 is deprecated and signs too little to trust.
    const version = opts.signVersion;
    const received = params.sig ?? '';
    if (
      params.sign_version !== String(version) ||
      !received ||
      !safeEqual(paymentwallSignature(params, opts.secretKey, version), received)
    ) {
      throw new SignatureError();
    }
    const status = TYPE[params.type ?? ''];
    const paymentId = params.goodsid;
    if (!status || !paymentId || !params.ref) return null;
    // The amount was fixed by the signed widget URL; a project may add it to the pingback as custom parameters.
    // An amount that does not parse is -1: it can never match, so the event is refused.
    return {
      eventId: `${params.ref}:${params.type ?? ''}`,
      paymentId,
      status,
      amountCents: params.amount === undefined ? null : (decimalToCents(params.amount) ?? -1),
      currency: params.currency ?? null,
    };
  },

  /**
   * ADR 0058: Paymentwall's Payment Status API, `GET {PAYMENTWALL_API_URL}/rest/payment` with
   * `key`, `uid`, `ag_external_id`, `sign_version` (the configured one) and `sign`, signed as a widget
   * call. The answer is unsigned and trusted over TLS from the configured host; it must name this attempt
   * and customer. Its event id is the pingback's (`<ref>:<type>`), so a pingback of the same state later
   * is a duplicate. Paymentwall enables the API per project on request.
   */
  async queryStatus(payment): Promise<PaymentEvent | null> {
    if (opts.sandbox) return null;
    const params: Record<string, string> = {
      key: opts.projectKey,
      uid: String(payment.customerId),
      ag_external_id: payment.id,
      sign_version: String(opts.signVersion),
    };
    params.sign = paymentwallSignature(params, opts.secretKey, opts.signVersion);
    const doc = (await getJson(
      `${opts.apiUrl}/rest/payment?${new URLSearchParams(params).toString()}`,
      {},
      opts.timeoutMs,
    )) as PaymentStatusDocument | null;
    if (
      !doc ||
      doc.object !== 'payment' ||
      doc.id === undefined ||
      doc.product_id !== payment.id ||
      String(doc.uid) !== String(payment.customerId)
    ) {
      return null;
    }
    const type = doc.refunded === true ? '2' : STATUS_TYPE[doc.risk ?? ''];
    const status = type === undefined ? undefined : TYPE[type];
    if (!type || !status) return null;
    return {
      eventId: `${String(doc.id)}:${type}`,
      paymentId: payment.id,
      status,
      amountCents: doc.amount === undefined ? null : (decimalToCents(doc.amount) ?? -1),
      currency: doc.currency ?? null,
    };
  },

  sandboxCallback(payment, outcome): SandboxCallback {
    const params: Record<string, string> = {
      uid: String(payment.customerId),
      goodsid: payment.id,
      slength: '',
      speriod: '',
      type: outcome === 'paid' ? '0' : '202',
      ref: `b${createHash('sha1').update(payment.id).digest('hex').slice(0, 10)}`,
      amount: centsToDecimal(payment.amountCents),
      currency: payment.currency,
      sign_version: String(opts.signVersion),
    };
    params.sig = paymentwallSignature(params, opts.secretKey, opts.signVersion);
    return { method: 'GET', search: `?${new URLSearchParams(params).toString()}`, headers: {}, body: '' };
  },
});
