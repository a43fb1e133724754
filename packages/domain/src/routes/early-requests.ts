import { orderListRequestParams, parseDashboardFilters } from '../dashboard/rules/index';
import { DASHBOARD_PAGE_SIZE } from '../order/rules/index';
import { API_PATH, referralListPath } from './api-paths';

/** The dashboard's list request for the filters in its query string (SPEC §7, CONTRACT "Order list query"). */
export const dashboardListQuery = (search: URLSearchParams): string =>
  orderListRequestParams(parseDashboardFilters(search), DASHBOARD_PAGE_SIZE).toString();

/**
 * The order an order page's address names (`/orderinfo/{id}` or `/orderinfo/{id}/{tab}`; an id as the route
 * takes it, 1–10 digits), read the same way where the page asks for it early and where the app prefetches it.
 */
export const orderIdOfPage = (pathname: string): number | undefined => {
  const id = /^\/orderinfo\/(\d{1,10})(\/[a-z]+)?\/?$/.exec(pathname)?.[1];
  return id === undefined ? undefined : Number(id);
};

/**
 * What a signed-in page asks first, by route module: the customer (SPEC §2 "Startup order") and the
 * page's own data. Only paths the URL and the site's public settings decide; nothing private, and
 * nothing a visitor's page asks. `category` is the site's first category (`siteCategories[0]`).
 */
export const earlyRequests = (page: { module: string; pathname: string; search: string; category: number | undefined }): string[] => {
  const id = orderIdOfPage(page.pathname);
  switch (page.module) {
    case 'dashboard':
      return [
        API_PATH.customer,
        API_PATH.orderCount,
        ...(page.category === undefined ? [] : [API_PATH.orderList(page.category, dashboardListQuery(new URLSearchParams(page.search)))]),
      ];
    case 'order-info':
      return id === undefined ? [API_PATH.customer] : [API_PATH.customer, API_PATH.order(id)];
    case 'loyalty':
      // ADR 0101: the referral tab (the page's first, unless `?tab=discount`) draws with its list of friends.
      return [
        API_PATH.customer,
        API_PATH.loyaltyDiscounts,
        API_PATH.referralInfo,
        ...(new URLSearchParams(page.search).get('tab') === 'discount' ? [] : [referralListPath(0)]),
      ];
    case 'transactions':
    case 'profile':
    case 'order-info-lookup':
      return [API_PATH.customer];
    default:
      return [];
  }
};
