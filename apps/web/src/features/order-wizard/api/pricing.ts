import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { PriceCalcBody, PriceResponse } from '@app/domain/order-form';
import { apiFetch } from '@/lib/api-client';
import { wizardKeys } from './keys';

/** ADR 0027: the server is asked about 400 ms after the last change, never on every keystroke. */
export const PRICE_CONFIRM_DEBOUNCE_MS = 400;

/**
 * SPEC §7 / CONTRACT "Paths": `PUT …/orders/calcs`, no token needed. The signal comes from TanStack
 * Query, which aborts it when the body it was asked for is no longer the one on screen.
 */
export const confirmPrice = (category: number, body: PriceCalcBody, signal?: AbortSignal): Promise<PriceResponse> =>
  apiFetch(`/api/en/sites/categories/${category}/orders/calcs`, {
    method: 'PUT',
    auth: false,
    json: body,
    signal,
    schema: () => import('@app/domain/order-form').then((m) => m.priceResponseSchema),
    // The first confirmation leaves with the first paint: its schema checks it right after (ADR 0028).
    check: 'after',
  });

/**
 * The value once it has stayed the same (by its JSON) for `delayMs`. The settled value is read back
 * from that JSON, so a new object with the same content restarts nothing.
 */
export const useDebouncedKey = <T>(value: T, delayMs: number): { value: T; key: string } => {
  const key = JSON.stringify(value);
  const [settled, setSettled] = useState(() => ({ value, key }));
  useEffect(() => {
    if (key === settled.key) return undefined;
    const timer = window.setTimeout(() => setSettled({ value: JSON.parse(key) as T, key }), delayMs);
    return () => window.clearTimeout(timer);
  }, [key, settled.key, delayMs]);
  return settled;
};

/**
 * The server's price for `body`, asked once the body has settled; keyed by the body, so going back to a
 * combination seen a moment ago answers from the cache. `settled` tells whether the answer (or error)
 * is about the body on screen now: until then the caller shows its own, instant figure.
 */
export const usePriceConfirmation = (category: number, body: PriceCalcBody | null) => {
  const debounced = useDebouncedKey({ category, body }, PRICE_CONFIRM_DEBOUNCE_MS);
  const current = JSON.stringify({ category, body });
  const query = useQuery({
    queryKey: wizardKeys.priceCalc(debounced.value.category, debounced.value.body),
    queryFn: ({ signal }) => confirmPrice(debounced.value.category, debounced.value.body as PriceCalcBody, signal),
    enabled: debounced.value.body !== null,
    staleTime: 60_000,
  });
  return { query, settled: debounced.key === current };
};
