import type { BillingDetails } from '@app/domain/transaction/rules';
import { apiFetch } from '@/lib/api-client';
import { hashDevice, tokenStorage, type TokenPair } from '@/lib/storage';

const tokensSchema = () => import('@app/domain/auth').then((m) => m.tokensSchema);

/** CONTRACT "Identity": 'fail' means registered, 'success' free. */
export const checkmail = (email: string): Promise<{ status: 'fail' | 'success' }> =>
  apiFetch('/api/checkmail', {
    method: 'POST',
    auth: false,
    json: { email: email.trim() },
    schema: () => import('@app/domain/auth').then((m) => m.checkmailResponseSchema),
  });

export interface SignUpInput {
  firstName: string;
  lastName: string;
  email: string;
  phone: string;
  isEnabledNightCall: boolean;
  refId: string | null;
}

/** SPEC §7 sign_up; the password is optional (CONTRACT "Identity"). */
export const signUp = async (input: SignUpInput): Promise<void> => {
  const tokens: TokenPair = await apiFetch('/api/en/auth/jwt/sign_up', {
    method: 'POST',
    auth: false,
    json: {
      email: input.email.trim(),
      firstName: input.firstName,
      lastName: input.lastName,
      phone: input.phone,
      isEnabledNightCall: input.isEnabledNightCall,
      ref_id: input.refId,
      hashDevice: hashDevice(),
      // ADR 0085: the checkout asks for the terms before it signs up; the server records the versions accepted.
      terms: true,
    },
    schema: tokensSchema,
  });
  tokenStorage.write(tokens);
};

export const signIn = async (email: string, password: string): Promise<void> => {
  const tokens: TokenPair = await apiFetch('/api/en/auth/jwt/sign_in', {
    method: 'POST',
    auth: false,
    json: { email: email.trim(), password, hashDevice: hashDevice() },
    schema: tokensSchema,
  });
  tokenStorage.write(tokens);
};

/** CONTRACT "Identity": the link brings the customer back to /order. */
export const requestOrderMagicLink = (email: string): Promise<unknown> =>
  apiFetch('/api/magic_link', { method: 'POST', auth: false, form: { email: email.trim(), target: 'order' } });

/** ADR 0085: the billing details the checkout's section holds, on the profile before the order is paid. */
export const saveBilling = (billing: BillingDetails): Promise<unknown> =>
  apiFetch('/api/en/customers/customer/billing', { method: 'PUT', json: billing });
