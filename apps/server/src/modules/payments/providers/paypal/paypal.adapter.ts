import { createHash, createSign, createVerify } from 'node:crypto';
import { crc32 } from 'node:zlib';
import type { PaymentEventStatus } from '@app/domain';
import {
  ProviderError,
  providerCall,
  SignatureError,
  centsToDecimal,
  decimalToCents,
  type PaymentAttempt,
  type PaymentEvent,
  type PaymentProvider,
  type SandboxCallback,
} from '../types';

/** Webhook event types we act on (PayPal "Webhook event names", Payments v2 captures). */
const EVENT_STATUS: Record<string, PaymentEventStatus> = {
  'PAYMENT.CAPTURE.COMPLETED': 'paid',
  'PAYMENT.CAPTURE.PENDING': 'pending',
  'PAYMENT.CAPTURE.DENIED': 'declined',
  'PAYMENT.CAPTURE.DECLINED': 'declined',
  'PAYMENT.CAPTURE.REFUNDED': 'refunded',
  // A chargeback or other reversal of a completed capture (ADR 0036).
  'PAYMENT.CAPTURE.REVERSED': 'refunded',
};
const CAPTURE_STATUS: Record<string, PaymentEventStatus> = {
  COMPLETED: 'paid',
  PENDING: 'pending',
  DECLINED: 'declined',
  FAILED: 'declined',
  REFUNDED: 'refunded',
};

interface Money {
  currency_code?: string;
  value?: string;
}
interface Capture {
  id?: string;
  status?: string;
  amount?: Money;
  custom_id?: string;
}
interface OrderDocument {
  id?: string;
  status?: string;
  links?: { rel?: string; href?: string }[];
  purchase_units?: { reference_id?: string; custom_id?: string; payments?: { captures?: Capture[] } }[];
}
interface WebhookEvent {
  id?: string;
  event_type?: string;
  resource?: Capture;
}

/**
 * The message PayPal signs for a webhook (developer.paypal.com "Verify webhook signature", offline method):
 * transmission id, transmission time, webhook id and the CRC32 of the raw body, joined with '|'.
 */
export const paypalSignedMessage = (transmissionId: string, transmissionTime: string, webhookId: string, rawBody: string): string =>
  `${transmissionId}|${transmissionTime}|${webhookId}|${crc32(Buffer.from(rawBody, 'utf8')) >>> 0}`;

export interface PaypalOptions {
  clientId: string;
  clientSecret: string;
  webhookId: string;
  apiUrl: string;
  sandbox: boolean;
  sandboxPage: (paymentId: string) => string;
  /** Sandbox mode: the key pair the sandbox signs its webhooks with (PEM). */
  sandboxKeys?: { privateKey: string; publicKey: string };
  /** How long one call to its API may take (ADR 0074). */
  timeoutMs?: number;
}

/** PayPal Orders v2: create (intent CAPTURE), approve redirect, capture on return; webhooks verified. */
export const createPaypalProvider = (opts: PaypalOptions): PaymentProvider => {
  let token: { value: string; expiresAt: number } | undefined;

  const accessToken = async (): Promise<string> => {
    if (token && token.expiresAt > Date.now() + 60_000) return token.value;
    const res = await providerCall(
      `${opts.apiUrl}/v1/oauth2/token`,
      {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${opts.clientId}:${opts.clientSecret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: 'grant_type=client_credentials',
      },
      opts.timeoutMs,
    );
    if (res.status < 200 || res.status >= 300) throw new ProviderError(`PayPal token request answered ${res.status}`);
    let body: { access_token?: string; expires_in?: number };
    try {
      body = JSON.parse(res.text) as { access_token?: string; expires_in?: number };
    } catch {
      throw new ProviderError('PayPal answered a token that is not JSON');
    }
    if (!body.access_token) throw new ProviderError('PayPal answered no access token');
    token = { value: body.access_token, expiresAt: Date.now() + (body.expires_in ?? 300) * 1000 };
    return token.value;
  };

  const api = async (
    method: 'GET' | 'POST',
    path: string,
    body?: unknown,
    requestId?: string,
  ): Promise<{ status: number; json: unknown }> => {
    const res = await providerCall(
      `${opts.apiUrl}${path}`,
      {
        method,
        headers: {
          authorization: `Bearer ${await accessToken()}`,
          'content-type': 'application/json',
          accept: 'application/json',
          ...(requestId ? { 'paypal-request-id': requestId } : {}),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      },
      opts.timeoutMs,
    );
    let json: unknown = null;
    try {
      json = res.text ? (JSON.parse(res.text) as unknown) : null;
    } catch {
      throw new ProviderError(`PayPal ${path} answered something that is not JSON`);
    }
    return { status: res.status, json };
  };

  /** The event an order document tells about our attempt (the capture of its one purchase unit). */
  const eventFromOrder = (payment: PaymentAttempt, order: OrderDocument): PaymentEvent | null => {
    const unit = order.purchase_units?.find((u) => u.reference_id === payment.id || u.custom_id === payment.id);
    const capture = unit?.payments?.captures?.[0];
    if (!capture?.id || !capture.status) return order.status === 'VOIDED' ? voided(payment) : null;
    const status = CAPTURE_STATUS[capture.status];
    if (!status) return null;
    return {
      eventId: `capture:${capture.id}:${capture.status}`,
      paymentId: payment.id,
      status,
      amountCents: capture.amount?.value ? (decimalToCents(capture.amount.value) ?? -1) : null,
      currency: capture.amount?.currency_code ?? null,
    };
  };
  const voided = (payment: PaymentAttempt): PaymentEvent => ({
    eventId: `order:${payment.providerRef ?? payment.id}:VOIDED`,
    paymentId: payment.id,
    status: 'declined',
    amountCents: null,
    currency: null,
  });

  const verifySandboxSignature = (request: { headers: Record<string, string | undefined>; rawBody: string }): boolean => {
    const h = request.headers;
    if (!opts.sandboxKeys || h['paypal-auth-algo'] !== 'SHA256withRSA') return false;
    const message = paypalSignedMessage(
      h['paypal-transmission-id'] ?? '',
      h['paypal-transmission-time'] ?? '',
      opts.webhookId,
      request.rawBody,
    );
    return createVerify('RSA-SHA256')
      .update(message)
      .verify(opts.sandboxKeys.publicKey, h['paypal-transmission-sig'] ?? '', 'base64');
  };

  return {
    name: 'paypal',
    sandbox: opts.sandbox,
    callbackAnswer: { contentType: 'application/json', body: JSON.stringify({ status: 'ok' }) },

    async createPayment({ payment, order, returnUrls }) {
      if (opts.sandbox) return { redirectUrl: opts.sandboxPage(payment.id) };
      const { status, json } = await api(
        'POST',
        '/v2/checkout/orders',
        {
          intent: 'CAPTURE',
          purchase_units: [
            {
              reference_id: payment.id,
              custom_id: payment.id,
              description: `Order ${order.id}`,
              amount: { currency_code: payment.currency, value: centsToDecimal(payment.amountCents) },
            },
          ],
          payment_source: {
            paypal: { experience_context: { return_url: returnUrls.capture, cancel_url: returnUrls.fail, user_action: 'PAY_NOW' } },
          },
        },
        `create-${payment.id}`,
      );
      const doc = json as OrderDocument;
      const approve = doc.links?.find((l) => l.rel === 'payer-action' || l.rel === 'approve')?.href;
      if (status >= 300 || !doc.id || !approve) throw new ProviderError(`PayPal refused the order (${status})`);
      return { redirectUrl: approve, providerRef: doc.id };
    },

    async capture(payment) {
      if (opts.sandbox || !payment.providerRef) return null;
      const { status, json } = await api(
        'POST',
        `/v2/checkout/orders/${encodeURIComponent(payment.providerRef)}/capture`,
        {},
        `capture-${payment.id}`,
      );
      if (status >= 200 && status < 300) return eventFromOrder(payment, json as OrderDocument);
      // ORDER_ALREADY_CAPTURED and friends: ask what the order is now.
      return this.queryStatus ? this.queryStatus(payment) : null;
    },

    async queryStatus(payment) {
      if (opts.sandbox || !payment.providerRef) return null;
      const { status, json } = await api('GET', `/v2/checkout/orders/${encodeURIComponent(payment.providerRef)}`);
      if (status !== 200) return null;
      return eventFromOrder(payment, json as OrderDocument);
    },

    async verifyCallback(request) {
      let event: WebhookEvent;
      try {
        event = JSON.parse(request.rawBody) as WebhookEvent;
      } catch {
        throw new SignatureError();
      }
      const h = request.headers;
      if (opts.sandbox) {
        if (!verifySandboxSignature(request)) throw new SignatureError();
      } else {
        // PayPal's postback verification: POST /v1/notifications/verify-webhook-signature.
        const { status, json } = await api('POST', '/v1/notifications/verify-webhook-signature', {
          auth_algo: h['paypal-auth-algo'],
          cert_url: h['paypal-cert-url'],
          transmission_id: h['paypal-transmission-id'],
          transmission_sig: h['paypal-transmission-sig'],
          transmission_time: h['paypal-transmission-time'],
          webhook_id: opts.webhookId,
          webhook_event: event,
        });
        if (status !== 200 || (json as { verification_status?: string } | null)?.verification_status !== 'SUCCESS') {
          throw new SignatureError();
        }
      }
      const status = EVENT_STATUS[event.event_type ?? ''];
      const resource = event.resource;
      if (!status || !event.id || !resource?.custom_id) return null;
      return {
        eventId: event.id,
        paymentId: resource.custom_id,
        status,
        amountCents: resource.amount?.value ? (decimalToCents(resource.amount.value) ?? -1) : null,
        currency: resource.amount?.currency_code ?? null,
      };
    },

    sandboxCallback(payment, outcome): SandboxCallback {
      const keys = opts.sandboxKeys;
      if (!keys) throw new ProviderError('PayPal sandbox keys are missing');
      const digest = createHash('sha1').update(payment.id).digest('hex');
      const captureStatus = outcome === 'paid' ? 'COMPLETED' : 'DECLINED';
      const body = JSON.stringify({
        id: `WH-${digest.slice(0, 17).toUpperCase()}-${captureStatus}`,
        event_version: '1.0',
        create_time: payment.createdAt.toISOString(),
        resource_type: 'capture',
        event_type: outcome === 'paid' ? 'PAYMENT.CAPTURE.COMPLETED' : 'PAYMENT.CAPTURE.DENIED',
        resource: {
          id: digest.slice(0, 17).toUpperCase(),
          status: captureStatus,
          amount: { currency_code: payment.currency, value: centsToDecimal(payment.amountCents) },
          custom_id: payment.id,
        },
      });
      const transmissionId = `${digest.slice(0, 8)}-${outcome}`;
      const transmissionTime = payment.createdAt.toISOString();
      const sig = createSign('RSA-SHA256')
        .update(paypalSignedMessage(transmissionId, transmissionTime, opts.webhookId, body))
        .sign(keys.privateKey, 'base64');
      return {
        method: 'POST',
        search: '',
        headers: {
          'content-type': 'application/json',
          'paypal-auth-algo': 'SHA256withRSA',
          'paypal-cert-url': 'sandbox',
          'paypal-transmission-id': transmissionId,
          'paypal-transmission-sig': sig,
          'paypal-transmission-time': transmissionTime,
        },
        body,
      };
    },
  };
};
