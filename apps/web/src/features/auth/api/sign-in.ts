import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { hashDevice } from '@/lib/storage';
import { storeTokens, tokenPairSchema } from './tokens';

export interface SignInInput {
  email: string;
  password: string;
  /** ADR 0090: the authenticator's code, once the server asked for it (a staff account with two-factor on). */
  otp?: string | undefined;
}

/** SPEC §7: POST /api/en/auth/jwt/sign_in; wrong credentials answer 400 { message } (CONTRACT). */
export const signIn = async ({ email, password, otp }: SignInInput): Promise<void> => {
  const tokens = await apiFetch('/api/en/auth/jwt/sign_in', {
    method: 'POST',
    auth: false,
    json: { email: email.trim(), password, hashDevice: hashDevice(), ...(otp ? { otp: otp.trim() } : {}) },
    schema: tokenPairSchema,
  });
  storeTokens(tokens);
};

export const useSignIn = () => useMutation({ mutationFn: signIn });
