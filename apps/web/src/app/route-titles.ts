import { SITE_NAME } from '@/config/site';
import { paths } from '@/config/paths';

/** Every route's page name, in one place (ADR 0042): the document title and the route announcement. */
const PAGE_NAMES: Record<string, string> = {
  [paths.home]: 'All Orders',
  [paths.order]: 'New Order',
  [paths.dashboard]: 'All Orders',
  [paths.transactions]: 'Transactions',
  [paths.profile]: 'Settings',
  [paths.loyalty]: 'My Bonuses',
  [paths.orderInfoLookup]: 'Order',
  [paths.login]: 'Sign in',
  [paths.resetPassword]: 'Set a new password',
  [paths.logout]: 'Signed out',
  [paths.notFound]: 'Page not found',
  [paths.staff]: 'Staff orders',
  [paths.staffMoney]: 'Money',
};

const ORDER_PAGE = /^\/orderinfo\/([^/]+)/;
const STAFF_ORDER_PAGE = /^\/staff\/orders\/([^/]+)/;

/** The page a path shows; the order page's tabs are one page ('Order #12'). */
export const pageName = (pathname: string): string => {
  const order = ORDER_PAGE.exec(pathname);
  if (order?.[1]) return `Order #${decodeURIComponent(order[1])}`;
  const staffOrder = STAFF_ORDER_PAGE.exec(pathname);
  if (staffOrder?.[1]) return `Staff · Order #${decodeURIComponent(staffOrder[1])}`;
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  return PAGE_NAMES[path] ?? 'Page not found';
};

export const documentTitle = (pathname: string): string => `${pageName(pathname)} · ${SITE_NAME}`;

/** What counts as another page: the path without the order page's tab. */
export const pageKey = (pathname: string): string => ORDER_PAGE.exec(pathname)?.[0] ?? pathname;
