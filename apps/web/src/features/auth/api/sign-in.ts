import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { hashDevice } from '@/lib/storage';
import { storeTokens, tokenPairSchema } from './tokens';

export interface SignInInput {
  email: string;
  password: string;
}

/** SPEC §7: POST /api/en/auth/jwt/sign_in; wrong credentials answer 400 { message } (CONTRACT). */
export const signIn = async ({ email, password }: SignInInput): Promise<void> => {
  const tokens = await apiFetch('/api/en/auth/jwt/sign_in', {
    method: 'POST',
    auth: false,
    json: { email: email.trim(), password, hashDevice: hashDevice() },
    schema: tokenPairSchema,
  });
  storeTokens(tokens);
};

export const useSignIn = () => useMutation({ mutationFn: signIn });
