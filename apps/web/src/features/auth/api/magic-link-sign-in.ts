import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '@/lib/api-client';
import { authKeys } from './keys';
import { storeTokens, tokenPairSchema } from './tokens';

/** CONTRACT "Identity": GET /api/en/auth/magic_link/{token} returns the tokens, once; 404 when spent. */
export const magicLinkSignIn = async (token: string): Promise<true> => {
  const tokens = await apiFetch(`/api/en/auth/magic_link/${encodeURIComponent(token)}`, {
    auth: false,
    schema: tokenPairSchema,
  });
  storeTokens(tokens);
  return true;
};

/**
 * The startup's magic-link step. A query rather than a mutation so that it runs exactly once per token
 * however often the startup renders (the token is single-use: a second call would 404).
 */
export const useMagicLinkSignIn = (token: string | null, enabled: boolean) =>
  useQuery({
    queryKey: authKeys.magicLink(token ?? ''),
    queryFn: () => magicLinkSignIn(token ?? ''),
    enabled: enabled && token !== null,
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });
