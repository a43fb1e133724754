import { orderListRequestParams, parseDashboardFilters } from '../dashboard/rules/index';
import { DASHBOARD_PAGE_SIZE } from '../order/rules/index';
import { API_PATH } from './api-paths';

/** The dashboard's list request for the filters in its query string (SPEC §7, CONTRACT "Order list query"). */
export const dashboardListQuery = (search: URLSearchParams): string =>
  orderListRequestParams(parseDashboardFilters(search), DASHBOARD_PAGE_SIZE).toString();

/**
 * What a signed-in page asks first, by route module: the customer (SPEC §2 "Startup order") and the
 * page's own data. Only paths the URL and the site's public settings decide; nothing private, and
 * nothing a visitor's page asks. `category` is the site's first category (`siteCategories[0]`).
 */
export const earlyRequests = (page: { module: string; pathname: string; search: string; category: number | undefined }): string[] => {
  const id = /^\/orderinfo\/(\d+)(\/[a-z]+)?\/?$/.exec(page.pathname)?.[1];
  switch (page.module) {
    case 'dashboard':
      return [
        API_PATH.customer,
        API_PATH.orderCount,
        ...(page.category === undefined ? [] : [API_PATH.orderList(page.category, dashboardListQuery(new URLSearchParams(page.search)))]),
      ];
    case 'order-info':
      return id === undefined ? [API_PATH.customer] : [API_PATH.customer, API_PATH.order(Number(id))];
    case 'loyalty':
      return [API_PATH.customer, API_PATH.loyaltyDiscounts, API_PATH.referralInfo];
    case 'transactions':
    case 'profile':
    case 'order-info-lookup':
      return [API_PATH.customer];
    default:
      return [];
  }
};
