/**
 * ADR 0100: the API paths a signed-in page's first paint waits for. The web app asks them through these
 * builders, and the server lists them in the page (`earlyRequests`) so that the page's inline script asks
 * them with the stored token while the app's code is still on its way: one list, two readers, so that
 * the page never asks for a path the app then does not use.
 */
export const API_PATH = {
  customer: '/api/en/customers/customer',
  orderCount: '/api/en/orders/count',
  loyaltyDiscounts: '/api/en/orders/discounts/loyalty_discounts',
  referralInfo: '/api/en/customers/referral',
  order: (id: number) => `/api/en/orders/${id}`,
  orderList: (category: number, query: string) => `/api/en/sites/categories/${category}/orders?${query}`,
} as const;

/**
 * SPEC §7: the referred friends, `idStatus` 0 for all (the referral tab's first filter). Apart from
 * `API_PATH`, which the web app's entry carries whole: only /loyalty's code needs this one (ADR 0101).
 */
export const referralListPath = (idStatus: number): string => `/api/en/customers/referrals/referral_customers?idStatus=${idStatus}`;

/** The id of the `<script type="application/json">` listing the paths the page's inline script asks early. */
export const EARLY_REQUESTS_ELEMENT_ID = 'early-requests';

/** Where the page's inline script leaves the early answers for the app: `window[EARLY_REQUESTS_GLOBAL][path]`. */
export const EARLY_REQUESTS_GLOBAL = '__earlyRequests';
