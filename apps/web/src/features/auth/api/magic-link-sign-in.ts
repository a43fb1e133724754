import { useQuery } from '@tanstack/react-query';
import { TRANSPORT_MESSAGE } from '@app/domain/errors';
import { authKeys } from './keys';

// The call, the token pair and the messages load only when an address carries a magic link: a first
// visit's entry chunk goes without them (ADR 0062).
const loadMagicLinkCall = () => import('./magic-link-call');

/**
 * The startup's magic-link step. A query rather than a mutation so that it runs exactly once per token
 * however often the startup renders (the token is single-use: a second call would 404).
 */
export const useMagicLinkSignIn = (token: string | null, enabled: boolean) =>
  useQuery({
    queryKey: authKeys.magicLink(token ?? ''),
    queryFn: () => loadMagicLinkCall().then((m) => m.magicLinkSignIn(token ?? '')),
    enabled: enabled && token !== null,
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });

/** SPEC §8 "This link is invalid or has expired", from the call's module (already here once the call failed). */
export const magicLinkInvalidMessage = (): Promise<string> =>
  loadMagicLinkCall().then(
    (m) => m.MAGIC_LINK_INVALID,
    () => TRANSPORT_MESSAGE.somethingWentWrong,
  );
