import type { Schema } from '@/lib/api-client';
import { tokenStorage, type TokenPair } from '@/lib/storage';

/** The `{ accessToken, refreshToken }` answer of sign-in, magic link and refresh (SPEC §7). */
export const tokenPairSchema: Schema<TokenPair> = {
  parse: (data) => {
    if (
      typeof data === 'object' &&
      data !== null &&
      'accessToken' in data &&
      'refreshToken' in data &&
      typeof data.accessToken === 'string' &&
      typeof data.refreshToken === 'string'
    ) {
      return { accessToken: data.accessToken, refreshToken: data.refreshToken };
    }
    throw new TypeError('The server answered without a token pair');
  },
};

export const storeTokens = (tokens: TokenPair): void => tokenStorage.write(tokens);
