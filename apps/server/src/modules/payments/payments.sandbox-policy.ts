import { PAYMENT_SYSTEMS, type PaymentSystem } from '@app/domain';
import type { Logger } from '../../lib/logger';
import type { Config } from '../../config';

type PolicyConfig = Pick<Config, 'env' | 'payments'>;

/**
 * ADR 0036: sandbox mode is a development aid. With
 * NODE_ENV=production a provider without credentials runs in sandbox mode only when PAYMENTS_SANDBOX=1.
 */
export const sandboxAllowed = (config: PolicyConfig): boolean => config.env !== 'production' || config.payments.sandbox;

/** The providers this deployment offers: those with credentials, plus the sandboxed ones where allowed. */
export const usablePaymentSystems = (config: PolicyConfig): PaymentSystem[] =>
  PAYMENT_SYSTEMS.filter((p) => config.payments[p] !== undefined || sandboxAllowed(config));

/** The start-up lines: PAYMENTS_SANDBOX=1 in production is an error-level line, every start. */
export const logSandboxPolicy = (config: PolicyConfig, log: Logger): void => {
  if (config.env !== 'production') return;
  const sandboxed = PAYMENT_SYSTEMS.filter((p) => config.payments[p] === undefined);
  if (config.payments.sandbox) {
    log.error(
      { providers: sandboxed },
      'PAYMENTS_SANDBOX=1 in production: payment providers without credentials run in SANDBOX MODE. No money moves and anyone can mark an order paid. Unset PAYMENTS_SANDBOX for real payments.',
    );
  } else if (sandboxed.length > 0) {
    log.warn(
      { providers: sandboxed },
      'payment providers without credentials are not offered in production (set their credentials, or PAYMENTS_SANDBOX=1 for a demo)',
    );
  }
};
