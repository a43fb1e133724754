import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFondyProvider, fondySignature } from './fondy/fondy.adapter';
import { createPaycoreProvider, paycoreSignature } from './paycore/paycore.adapter';
import { createPaymentwallProvider, paymentwallSignature } from './paymentwall/paymentwall.adapter';
import { createPaypalProvider } from './paypal/paypal.adapter';
import { SignatureError, type PaymentAttempt, type ReturnUrls } from './types';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;
const servers: Server[] = [];
/** A fake of a provider's API on 127.0.0.1 and a random port, built from its docs. */
const fake = async (handler: Handler): Promise<string> => {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => handler(req, body, res));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};
const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
afterAll(async () => {
  await Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
});

const payment: PaymentAttempt = {
  id: 'pay_0123456789abcdef',
  orderId: 42,
  customerId: 7,
  amountCents: 2450,
  currency: 'USD',
  providerRef: null,
  createdAt: new Date('2025-01-02T03:04:05Z'),
};
const order = { id: 42, uid: 'uid-0123456789abcdef', title: 'An essay' };
const returnUrls: ReturnUrls = {
  success: 'http://shop.test/orderinfo/42/details?payment=success',
  fail: 'http://shop.test/orderinfo/42/details?payment=fail',
  callback: 'http://shop.test/api/payments/x/callback',
  capture: 'http://shop.test/pp/sdk/return?payment=pay_0123456789abcdef',
  serverReturn: 'http://shop.test/payments/pay_0123456789abcdef/return',
};
const sandboxPage = (id: string) => `http://shop.test/sandbox/x/${id}`;

describe('Fondy', () => {
  it('signs the docs known-answer request: merchant key "test", merchant 1396424 → 91ea7da4…', () => {
    // docs.fondy.io/reference/authentication: the checkout/url example request and its signature.
    const request = {
      server_callback_url: 'http://myshop/callback/',
      order_id: 'TestOrder2',
      currency: 'USD',
      merchant_id: 1396424,
      order_desc: 'Test payment',
      amount: 1000,
    };
    expect(fondySignature(request, 'test')).toBe('91ea7da493a8367410fe3d7f877fb5e0ed666490');
  });

  it('leaves empty values and the signature fields out of the signed string', () => {
    const base = {
      amount: 1000,
      currency: 'USD',
      merchant_id: 1396424,
      order_desc: 'Test payment',
      order_id: 'TestOrder2',
      server_callback_url: 'http://myshop/callback/',
    };
    expect(fondySignature({ ...base, sender_email: '', signature: 'x', response_signature_string: 'y' }, 'test')).toBe(
      '91ea7da493a8367410fe3d7f877fb5e0ed666490',
    );
  });

  let api: string;
  const seen: Record<string, unknown>[] = [];
  beforeAll(async () => {
    api = await fake((req, body, res) => {
      const { request } = JSON.parse(body) as { request: Record<string, string | number> };
      seen.push(request);
      const ok = request.signature === fondySignature(request, 'fondy-key') && String(request.merchant_id) === '1500001';
      if (req.url === '/api/checkout/url/') {
        if (!ok) return json(res, 200, { response: { response_status: 'failure', error_message: 'Invalid signature', error_code: 1014 } });
        return json(res, 200, {
          response: { response_status: 'success', checkout_url: `https://pay.fondy.test/merchants/x/default/index.html?token=abc` },
        });
      }
      if (req.url === '/api/status/order_id') {
        const answer: Record<string, string> = {
          response_status: 'success',
          order_id: String(request.order_id),
          merchant_id: '1500001',
          order_status: 'approved',
          amount: '2450',
          currency: 'USD',
          payment_id: '90001',
        };
        answer.signature = fondySignature(answer, 'fondy-key');
        return json(res, 200, { response: answer });
      }
      json(res, 404, {});
    });
  });
  const fondy = () =>
    createFondyProvider({ merchantId: '1500001', secretKey: 'fondy-key', apiUrl: `${api}/api`, sandbox: false, sandboxPage });

  it('creates a checkout URL with a signed request carrying the amount in cents and the callback URL', async () => {
    const created = await fondy().createPayment({ payment, order, returnUrls });
    expect(created.redirectUrl).toBe('https://pay.fondy.test/merchants/x/default/index.html?token=abc');
    expect(seen.at(-1)).toMatchObject({ amount: 2450, currency: 'USD', order_id: payment.id, server_callback_url: returnUrls.callback });
  });

  it('fails when Fondy refuses the signature', async () => {
    const wrong = createFondyProvider({ merchantId: '1500001', secretKey: 'other', apiUrl: `${api}/api`, sandbox: false, sandboxPage });
    await expect(wrong.createPayment({ payment, order, returnUrls })).rejects.toThrow(/Invalid signature/);
  });

  it('verifies a signed callback and refuses a bad one', async () => {
    const fields: Record<string, string> = {
      order_id: payment.id,
      merchant_id: '1500001',
      order_status: 'approved',
      amount: '2450',
      currency: 'USD',
      payment_id: '5',
    };
    fields.signature = fondySignature(fields, 'fondy-key');
    const good = await fondy().verifyCallback({
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      query: {},
      rawBody: JSON.stringify(fields),
    });
    expect(good).toEqual({ eventId: '5:approved', paymentId: payment.id, status: 'paid', amountCents: 2450, currency: 'USD' });
    const forged = new URLSearchParams({ ...fields, amount: '1' }).toString();
    await expect(
      fondy().verifyCallback({
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        query: {},
        rawBody: forged,
      }),
    ).rejects.toBeInstanceOf(SignatureError);
  });

  /** The signature the code before ADR 0036 accepted: every field of the message, whatever its name. */
  const signEverything = (fields: Record<string, string>, key: string) =>
    createHash('sha1')
      .update(
        [
          key,
          ...Object.keys(fields)
            .sort()
            .map((k) => fields[k] ?? '')
            .filter((v) => v !== ''),
        ].join('|'),
      )
      .digest('hex');
  const callbackOf = (fields: Record<string, string>) =>
    fondy().verifyCallback({ method: 'POST', headers: { 'content-type': 'application/json' }, query: {}, rawBody: JSON.stringify(fields) });

  it('counts only the fields Fondy signs: a message signed over a field outside its protocol is refused', async () => {
    const fields: Record<string, string> = {
      order_id: payment.id,
      merchant_id: '1500001',
      order_status: 'approved',
      amount: '2450',
      currency: 'USD',
      payment_id: '6',
    };
    // An extra field sorted between amount and currency shifts every later value one place.
    const withExtra: Record<string, string> = { ...fields, b_extra: 'USD' };
    await expect(callbackOf({ ...withExtra, signature: signEverything(withExtra, 'fondy-key') })).rejects.toBeInstanceOf(SignatureError);
    // The same message signed over Fondy's fields is authentic; the field outside the protocol is ignored.
    expect(await callbackOf({ ...withExtra, signature: fondySignature(fields, 'fondy-key') })).toMatchObject({
      status: 'paid',
      paymentId: payment.id,
    });
  });

  it("refuses a value containing '|', which would shift the signed string's field boundaries", async () => {
    // Signed as Fondy signs: "key|2450|USD|...": a '|' inside a value reads as two values.
    const fields: Record<string, string> = {
      order_id: payment.id,
      merchant_id: '1500001',
      order_status: 'declined',
      amount: '2450',
      currency: 'USD',
      payment_id: '7',
      merchant_data: 'x|approved',
    };
    await expect(callbackOf({ ...fields, signature: signEverything(fields, 'fondy-key') })).rejects.toBeInstanceOf(SignatureError);
    expect(() => fondySignature(fields, 'fondy-key')).toThrow(SignatureError);
  });

  it('queries the status of an attempt and verifies the signed answer', async () => {
    expect(await fondy().queryStatus?.(payment)).toMatchObject({ status: 'paid', paymentId: payment.id, amountCents: 2450 });
  });
});

describe('Paymentwall', () => {
  let api: string;
  beforeAll(async () => {
    // The widget endpoint refuses a URL whose sign does not hold (docs: signature v2/v3 of the widget call).
    api = await fake((req, _body, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      const params = Object.fromEntries(url.searchParams);
      const version = params.sign_version === '2' ? 2 : 3;
      const ok = url.pathname === '/api/subscription' && params.sign === paymentwallSignature(params, 'pw-secret', version);
      res.writeHead(ok ? 200 : 403, { 'content-type': 'text/html' });
      res.end(ok ? '<html>widget</html>' : 'Wrong signature');
    });
  });
  const pw = (signVersion: 2 | 3 = 3, secretKey = 'pw-secret') =>
    createPaymentwallProvider({
      projectKey: 'pk',
      secretKey,
      apiUrl: `${api}/api`,
      widget: 'p1_1',
      signVersion,
      sandbox: false,
      sandboxPage,
    });

  it.each([2, 3] as const)('builds a widget URL the widget accepts (sign_version %i)', async (version) => {
    const { redirectUrl } = await pw(version).createPayment({ payment, order, returnUrls });
    const url = new URL(redirectUrl);
    expect(url.searchParams.get('amount')).toBe('24.50');
    expect(url.searchParams.get('ag_external_id')).toBe(payment.id);
    expect((await fetch(redirectUrl)).status).toBe(200);
    const bad = await pw(version, 'wrong').createPayment({ payment, order, returnUrls });
    expect((await fetch(bad.redirectUrl)).status).toBe(403);
  });

  const pingback = (version: 2 | 3) => {
    const params: Record<string, string> = {
      uid: '7',
      goodsid: payment.id,
      slength: '',
      speriod: '',
      type: '0',
      ref: 'b1',
      sign_version: String(version),
    };
    const base =
      Object.keys(params)
        .sort()
        .map((k) => `${k}=${params[k] ?? ''}`)
        .join('') + 'pw-secret';
    params.sig = createHash(version === 2 ? 'md5' : 'sha256')
      .update(base)
      .digest('hex');
    return params;
  };

  it('verifies pingbacks signed with the configured version, v2 (MD5) or v3 (SHA-256), and refuses a bad sig', async () => {
    for (const version of [2, 3] as const) {
      const params = pingback(version);
      expect(await pw(version).verifyCallback({ method: 'GET', headers: {}, query: params, rawBody: '' })).toMatchObject({
        eventId: 'b1:0',
        status: 'paid',
        paymentId: payment.id,
      });
      await expect(
        pw(version).verifyCallback({ method: 'GET', headers: {}, query: { ...params, type: '2' }, rawBody: '' }),
      ).rejects.toBeInstanceOf(SignatureError);
    }
  });

  it('refuses a pingback that asks for another signature version than the configured one (v2 MD5 when v3 is set)', async () => {
    await expect(pw(3).verifyCallback({ method: 'GET', headers: {}, query: pingback(2), rawBody: '' })).rejects.toBeInstanceOf(
      SignatureError,
    );
    await expect(pw(2).verifyCallback({ method: 'GET', headers: {}, query: pingback(3), rawBody: '' })).rejects.toBeInstanceOf(
      SignatureError,
    );
    const { sign_version: _dropped, ...unversioned } = pingback(3);
    await expect(pw(3).verifyCallback({ method: 'GET', headers: {}, query: unversioned, rawBody: '' })).rejects.toBeInstanceOf(
      SignatureError,
    );
  });

  it('maps type 2 to a refund and answers OK', async () => {
    const params: Record<string, string> = { uid: '7', goodsid: payment.id, type: '2', ref: 'b1', sign_version: '3' };
    params.sig = paymentwallSignature(params, 'pw-secret', 3);
    expect((await pw().verifyCallback({ method: 'GET', headers: {}, query: params, rawBody: '' }))?.status).toBe('refunded');
    expect(pw().callbackAnswer.body).toBe('OK');
  });
});

describe('PayPal', () => {
  let api: string;
  const captured: string[] = [];
  beforeAll(async () => {
    api = await fake((req, body, res) => {
      const auth = req.headers.authorization ?? '';
      if (req.url === '/v1/oauth2/token') {
        const ok = auth === `Basic ${Buffer.from('cid:csecret').toString('base64')}` && body === 'grant_type=client_credentials';
        return ok
          ? json(res, 200, { access_token: 'A21AA-token', token_type: 'Bearer', expires_in: 32400 })
          : json(res, 401, { error: 'invalid_client' });
      }
      if (auth !== 'Bearer A21AA-token') return json(res, 401, {});
      if (req.url === '/v2/checkout/orders' && req.method === 'POST') {
        const doc = JSON.parse(body) as { intent: string; purchase_units: { amount: { value: string; currency_code: string } }[] };
        if (doc.intent !== 'CAPTURE') return json(res, 422, {});
        return json(res, 200, {
          id: '5O190127TN364715T',
          status: 'PAYER_ACTION_REQUIRED',
          links: [
            { href: 'https://api-m.paypal.test/v2/checkout/orders/5O190127TN364715T', rel: 'self', method: 'GET' },
            { href: 'https://www.paypal.test/checkoutnow?token=5O190127TN364715T', rel: 'payer-action', method: 'GET' },
          ],
        });
      }
      if (req.url === '/v2/checkout/orders/5O190127TN364715T/capture' && req.method === 'POST') {
        captured.push(String(req.headers['paypal-request-id']));
        return json(res, 201, {
          id: '5O190127TN364715T',
          status: 'COMPLETED',
          purchase_units: [
            {
              reference_id: payment.id,
              payments: {
                captures: [
                  { id: '3C679366HH908993F', status: 'COMPLETED', amount: { currency_code: 'USD', value: '24.50' }, custom_id: payment.id },
                ],
              },
            },
          ],
        });
      }
      if (req.url === '/v1/notifications/verify-webhook-signature') {
        const v = JSON.parse(body) as { transmission_sig: string; webhook_id: string; auth_algo: string };
        const ok = v.transmission_sig === 'sig-from-paypal' && v.webhook_id === 'WH-ID' && v.auth_algo === 'SHA256withRSA';
        return json(res, 200, { verification_status: ok ? 'SUCCESS' : 'FAILURE' });
      }
      json(res, 404, {});
    });
  });
  const paypal = () =>
    createPaypalProvider({ clientId: 'cid', clientSecret: 'csecret', webhookId: 'WH-ID', apiUrl: api, sandbox: false, sandboxPage });

  it('creates an order (intent CAPTURE) and sends the buyer to the payer-action link', async () => {
    const created = await paypal().createPayment({ payment, order, returnUrls });
    expect(created).toEqual({
      redirectUrl: 'https://www.paypal.test/checkoutnow?token=5O190127TN364715T',
      providerRef: '5O190127TN364715T',
    });
  });

  it('captures the approved order on return and reads the capture as paid', async () => {
    const event = await paypal().capture?.({ ...payment, providerRef: '5O190127TN364715T' });
    expect(event).toEqual({
      eventId: 'capture:3C679366HH908993F:COMPLETED',
      paymentId: payment.id,
      status: 'paid',
      amountCents: 2450,
      currency: 'USD',
    });
    expect(captured).toContain(`capture-${payment.id}`);
  });

  it('verifies a webhook through verify-webhook-signature and refuses one PayPal does not confirm', async () => {
    const body = JSON.stringify({
      id: 'WH-58D329510W468432D',
      event_type: 'PAYMENT.CAPTURE.COMPLETED',
      resource: { id: '3C679366HH908993F', status: 'COMPLETED', amount: { currency_code: 'USD', value: '24.50' }, custom_id: payment.id },
    });
    const headers = {
      'paypal-auth-algo': 'SHA256withRSA',
      'paypal-cert-url': 'https://api.paypal.test/v1/notifications/certs/CERT',
      'paypal-transmission-id': '69cd13f0-d67a-11e5-baa3-778b53f4ae55',
      'paypal-transmission-time': '2025-01-02T03:04:05Z',
      'paypal-transmission-sig': 'sig-from-paypal',
    };
    expect(await paypal().verifyCallback({ method: 'POST', headers, query: {}, rawBody: body })).toEqual({
      eventId: 'WH-58D329510W468432D',
      paymentId: payment.id,
      status: 'paid',
      amountCents: 2450,
      currency: 'USD',
    });
    await expect(
      paypal().verifyCallback({ method: 'POST', headers: { ...headers, 'paypal-transmission-sig': 'forged' }, query: {}, rawBody: body }),
    ).rejects.toBeInstanceOf(SignatureError);
  });
});

describe('paycore.io', () => {
  let api: string;
  beforeAll(async () => {
    api = await fake((req, body, res) => {
      if (req.url !== '/public-api/payment-invoices' || req.method !== 'POST') return json(res, 404, {});
      const doc = JSON.parse(body) as { public_key: string; amount: number; currency: string; reference_id: string };
      if (doc.public_key !== 'pk_test_1') return json(res, 401, { errors: [{ title: 'Unauthorized' }] });
      json(res, 201, {
        data: {
          type: 'payment-invoices',
          id: 'cpi_TESTINVOICE0001',
          attributes: {
            status: 'created',
            amount: doc.amount,
            currency: doc.currency,
            reference_id: doc.reference_id,
            hpp_url: 'https://checkout.paycore.test/cpi_TESTINVOICE0001',
          },
        },
      });
    });
  });
  const paycore = (publicKey = 'pk_test_1') =>
    createPaycoreProvider({ publicKey, secretKey: 'pc-secret', apiUrl: api, service: 'payment_card_usd_hpp', sandbox: false, sandboxPage });

  it('creates an invoice with the public key and redirects to its hosted page', async () => {
    expect(await paycore().createPayment({ payment, order, returnUrls })).toEqual({
      redirectUrl: 'https://checkout.paycore.test/cpi_TESTINVOICE0001',
      providerRef: 'cpi_TESTINVOICE0001',
    });
    await expect(paycore('pk_wrong').createPayment({ payment, order, returnUrls })).rejects.toThrow(/401/);
  });

  it('verifies X-Signature = base64(sha1(secret + body + secret)) and refuses a bad one', async () => {
    const body = JSON.stringify({
      data: {
        type: 'payment-invoices',
        id: 'cpi_1',
        attributes: { status: 'processed', amount: 24.5, currency: 'USD', reference_id: payment.id },
      },
    });
    const signature = createHash('sha1').update(`pc-secret${body}pc-secret`).digest('base64');
    expect(paycoreSignature(body, 'pc-secret')).toBe(signature);
    expect(await paycore().verifyCallback({ method: 'POST', headers: { 'x-signature': signature }, query: {}, rawBody: body })).toEqual({
      eventId: 'cpi_1:processed',
      paymentId: payment.id,
      status: 'paid',
      amountCents: 2450,
      currency: 'USD',
    });
    await expect(
      paycore().verifyCallback({ method: 'POST', headers: { 'x-signature': signature }, query: {}, rawBody: body.replace('24.5', '0.5') }),
    ).rejects.toBeInstanceOf(SignatureError);
  });
});
