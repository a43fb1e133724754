import {
  calculatePrice,
  DomainError,
  ERROR_CODE,
  levelFieldForCategory,
  ORDER_EDIT_MESSAGE,
  priceInputForCalcBody,
  priceToWire,
  toPriceTable,
  type PriceCalcBodyValues,
  type PriceResponse,
  type PriceTable,
} from '@app/domain';
import type { Clock } from '../../lib/clock';
import type { CatalogueReader } from '../catalogue';

/**
 * How long a category's price tables are reused. A cache of database rows, not state (DESIGN rule 7):
 * every instance reads the same rows, and an operator's change shows within this time.
 */
export const PRICE_TABLE_CACHE_MS = 5_000;

export const createPriceTables = ({
  catalogue,
  clock,
  ttlMs = PRICE_TABLE_CACHE_MS,
}: {
  catalogue: CatalogueReader;
  clock: Clock;
  ttlMs?: number;
}) => {
  const cache = new Map<number, { loadedAt: number; table: Promise<PriceTable> }>();
  const load = (category: string | number): Promise<PriceTable> => catalogue.calcs({ category: String(category) }).then(toPriceTable);
  // Concurrent requests share one load; a failed load (404) is forgotten at once.
  const loadIntoCache = (id: number, category: string | number, now: number): Promise<PriceTable> => {
    const table = load(category);
    const entry = { loadedAt: now, table };
    cache.set(id, entry);
    table.catch(() => {
      if (cache.get(id) === entry) cache.delete(id);
    });
    return table;
  };
  return {
    /** ADR 0090: an admin published new prices: the next quote on this instance reads them (others within PRICE_TABLE_CACHE_MS). */
    forget: (): void => cache.clear(),
    /**
     * The tables as `GET …/calcs` serves them, turned into cents by the same `toPriceTable` the wizard
     * uses. An unknown or not offered category rejects with the catalogue's 404 (never cached). A hit
     * allocates nothing but the clock's date: every price calculation goes through here (ADR 0026).
     */
    forCategory: (category: string | number): Promise<PriceTable> => {
      const id = Number(category);
      if (!Number.isSafeInteger(id)) return load(category);
      const now = clock.now().getTime();
      const hit = cache.get(id);
      if (hit && now - hit.loadedAt < ttlMs) return hit.table;
      return loadIntoCache(id, category, now);
    },
  };
};
export type PriceTables = ReturnType<typeof createPriceTables>;

export const createPricingService = ({ tables }: { tables: PriceTables }) => ({
  /** SPEC §7 `PUT …/calcs`: the domain price over the database tables; 422 when no rate fits. */
  calculate: async ({ category, body }: { category: string; body: PriceCalcBodyValues }): Promise<PriceResponse> => {
    const table = await tables.forCategory(category);
    const input = priceInputForCalcBody(body, table.siteCategory);
    if (!input) {
      const field = levelFieldForCategory(table.siteCategory);
      throw new DomainError(ERROR_CODE.validation, 'Invalid request', { [field]: ['Required'] });
    }
    const result = calculatePrice(table, input);
    if (!result.ok) throw new DomainError(ERROR_CODE.validation, ORDER_EDIT_MESSAGE.noRate);
    return priceToWire(result.price);
  },
});
export type PricingService = ReturnType<typeof createPricingService>;
