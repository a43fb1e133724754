import { createHash } from 'node:crypto';
import type { PaymentEventStatus } from '@app/domain';
import {
  SignatureError,
  centsToDecimal,
  decimalToCents,
  parseFields,
  safeEqual,
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
  return createHash(version === 3 ? 'sha256' : 'md5').update(base, 'utf8').digest('hex');
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

export interface PaymentwallOptions {
  projectKey: string;
  secretKey: string;
  apiUrl: string;
  widget: string;
  signVersion: 2 | 3;
  sandbox: boolean;
  sandboxPage: (paymentId: string) => string;
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
    if (params.sign_version !== String(version) || !received || !safeEqual(paymentwallSignature(params, opts.secretKey, version), received)) {
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
