import { generateKeyPairSync, randomBytes } from 'node:crypto';
import type { PaymentSystem } from '@app/domain';
import type { PaymentsConfig } from '../../../config';
import type { PaymentsRepo } from '../payments.repo';
import { createFondyProvider } from './fondy/fondy.adapter';
import { createPaycoreProvider } from './paycore/paycore.adapter';
import { createPaymentwallProvider } from './paymentwall/paymentwall.adapter';
import { createPaypalProvider } from './paypal/paypal.adapter';
import type { PaymentProvider } from './types';

export type { PaymentProvider } from './types';
export type Providers = Record<PaymentSystem, PaymentProvider>;

const secret = () => randomBytes(32).toString('hex');

/**
 * One adapter per provider (ADR 0024). A provider without credentials runs in sandbox mode (CONTRACT
 * "Payments"): the same adapter code signs and verifies, with a secret generated once and kept in
 * app_secrets, and the buyer is sent to our own sandbox page.
 */
export const createProviders = async ({
  config,
  repo,
  origin,
}: {
  config: PaymentsConfig;
  repo: PaymentsRepo;
  origin: string;
}): Promise<Providers> => {
  const sandboxPage = (provider: PaymentSystem) => (paymentId: string) => `${origin}/sandbox/${provider}/${encodeURIComponent(paymentId)}`;
  const sandboxSecret = (provider: PaymentSystem) => repo.ensureSecret(`payments_sandbox_${provider}`, secret);

  const fondy = config.fondy
    ? createFondyProvider({ ...config.fondy, sandbox: false, sandboxPage: sandboxPage('fondy'), timeoutMs: config.providerTimeoutMs })
    : createFondyProvider({
        merchantId: '1396424',
        secretKey: await sandboxSecret('fondy'),
        apiUrl: `${origin}/sandbox/fondy`,
        sandbox: true,
        sandboxPage: sandboxPage('fondy'),
      });

  const paymentwall = config.paymentwall
    ? createPaymentwallProvider({
        ...config.paymentwall,
        sandbox: false,
        sandboxPage: sandboxPage('paymentwall'),
        timeoutMs: config.providerTimeoutMs,
      })
    : createPaymentwallProvider({
        projectKey: 'sandbox',
        secretKey: await sandboxSecret('paymentwall'),
        apiUrl: `${origin}/sandbox/paymentwall`,
        widget: 'p1_1',
        signVersion: 3,
        sandbox: true,
        sandboxPage: sandboxPage('paymentwall'),
      });

  const paycore = config.paycore
    ? createPaycoreProvider({ ...config.paycore, sandbox: false, sandboxPage: sandboxPage('paycore'), timeoutMs: config.providerTimeoutMs })
    : createPaycoreProvider({
        publicKey: 'pk_sandbox',
        secretKey: await sandboxSecret('paycore'),
        apiUrl: `${origin}/sandbox/paycore`,
        service: undefined,
        sandbox: true,
        sandboxPage: sandboxPage('paycore'),
      });

  let paypal: PaymentProvider;
  if (config.paypal) {
    paypal = createPaypalProvider({
      ...config.paypal,
      sandbox: false,
      sandboxPage: sandboxPage('paypal'),
      timeoutMs: config.providerTimeoutMs,
    });
  } else {
    // PayPal signs webhooks with RSA (SHA256withRSA); the sandbox holds its own key pair.
    const keys = JSON.parse(
      await repo.ensureSecret('payments_sandbox_paypal_keys', () => {
        const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
        return JSON.stringify({
          privateKey: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }),
          publicKey: pair.publicKey.export({ type: 'spki', format: 'pem' }),
        });
      }),
    ) as { privateKey: string; publicKey: string };
    paypal = createPaypalProvider({
      clientId: 'sandbox',
      clientSecret: 'sandbox',
      webhookId: 'SANDBOX-WEBHOOK',
      apiUrl: `${origin}/sandbox/paypal`,
      sandbox: true,
      sandboxPage: sandboxPage('paypal'),
      sandboxKeys: keys,
    });
  }
  return { fondy, paymentwall, paycore, paypal };
};
