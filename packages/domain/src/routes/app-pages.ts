import { SITE_CATEGORY } from '../settings/rules/index';

/**
 * SPEC §2 "Screens and routes" as plain data: the web app's router builds its paths from these, the
 * server answers them with the app (200) and every other page path with the app's 404 page (status
 * 404), and keeps the signed-in ones out of search engines (robots.txt). One list, two readers.
 */
export const APP_PATH = {
  home: '/',
  order: '/order',
  dashboard: '/dashboard',
  transactions: '/transactions',
  profile: '/profile',
  loyalty: '/loyalty',
  orderInfoLookup: '/orderinfo',
  login: '/login',
  logout: '/logout',
  resetPassword: '/reset-password',
  notFound: '/404',
  /** ADR 0059: the staff console (writers and support), its own lazily loaded area. */
  staff: '/staff',
  /** Served by the server itself from the operator's text (ADR 0041), not by the web app. */
  terms: '/terms',
  privacy: '/privacy',
} as const;

export const ORDER_INFO_TAB_NAMES = ['details', 'files', 'messages', 'revisions'] as const;

/**
 * Every page path the web app draws (other than its 404 page), with the name of its route module in
 * apps/web/src/app/routes (the server preloads it with the page). `:name` stands for one path segment;
 * a trailing slash is accepted too. /orderinfo/{id} and /orderinfo/{id}/{tab} are the order page.
 */
export const APP_PAGES: readonly { path: string; module: string | null }[] = [
  // `/` opens the wizard for a visitor and the dashboard for a customer: the wizard is the likelier one.
  { path: APP_PATH.home, module: 'order' },
  { path: APP_PATH.order, module: 'order' },
  { path: APP_PATH.dashboard, module: 'dashboard' },
  { path: APP_PATH.transactions, module: 'transactions' },
  { path: APP_PATH.profile, module: 'profile' },
  { path: APP_PATH.loyalty, module: 'loyalty' },
  { path: APP_PATH.orderInfoLookup, module: 'order-info-lookup' },
  { path: `${APP_PATH.orderInfoLookup}/:id`, module: 'order-info' },
  { path: `${APP_PATH.orderInfoLookup}/:id/:tab`, module: 'order-info' },
  { path: APP_PATH.login, module: 'login' },
  { path: APP_PATH.logout, module: 'logout' },
  { path: APP_PATH.resetPassword, module: 'reset-password' },
  // ADR 0059: the staff console's queue, order view and money queues, one route module.
  { path: APP_PATH.staff, module: 'staff' },
  { path: `${APP_PATH.staff}/orders/:id`, module: 'staff' },
  { path: `${APP_PATH.staff}/money`, module: 'staff' },
  // ADR 0090: the staff member's two-factor sign-in and the admin section (prices, codes, staff, audit).
  { path: `${APP_PATH.staff}/two-factor`, module: 'staff' },
  { path: `${APP_PATH.staff}/admin/:section`, module: 'staff' },
];
/**
 * ADR 0101: the pages a returning customer opens daily (issue 27). Each loads only what it needs to draw;
 * once drawn it prefetches the others' code too, so that a move between them loads nothing.
 */
export const DAILY_PAGE_MODULES: readonly string[] = ['dashboard', 'order-info', 'loyalty'];
// Pure, so that a bundle reading only APP_PATH (the web app's entry, ADR 0062) leaves the page list out.
export const APP_ROUTES: readonly string[] = /* @__PURE__ */ APP_PAGES.map((p) => p.path);
/**
 * ADR 0064: the pages the server draws for a visitor (the same for every visitor, from the page's own
 * answers), which the browser then hydrates; every other page is drawn by the browser alone.
 */
export const SERVER_DRAWN_PATHS: readonly string[] = [APP_PATH.order, APP_PATH.login];
/** The attribute on the app's container that says the server drew what it holds. */
export const SERVER_DRAWN_ATTRIBUTE = 'data-server-drawn';
/**
 * The cookie the web app keeps while it holds a session (`1`), only so that the server does not draw a
 * visitor's page for a signed-in customer (ADR 0064); it carries no token and grants nothing.
 */
export const SESSION_HINT_COOKIE = 'signed_in';

/** CONTRACT "Identity": the query parameter of the emailed sign-in link (`/order?magicLink=…`). */
export const MAGIC_LINK_PARAM = 'magicLink';
/** ADR 0070: the page the deletion mail links to is {origin}/profile?deleteAccount={token}. */
export const ACCOUNT_DELETION_PARAM = 'deleteAccount';
/** ADR 0097: /profile?changeEmail={token}, the link mailed to the new address of an email change. */
export const EMAIL_CHANGE_PARAM = 'changeEmail';

/** The module of the web app's 404 page. */
export const NOT_FOUND_MODULE = 'not-found';

/** SPEC §2 "All routes except /order need an authorised user": pages no search engine should list. */
export const SIGNED_IN_PATHS: readonly string[] = [
  APP_PATH.dashboard,
  APP_PATH.transactions,
  APP_PATH.profile,
  APP_PATH.loyalty,
  APP_PATH.orderInfoLookup,
  APP_PATH.logout,
  APP_PATH.resetPassword,
  APP_PATH.staff,
];

const routePattern = (route: string): RegExp => new RegExp(`^${route === '/' ? '/' : `${route.replace(/:[a-z]+/gi, '[^/]+')}/?`}$`);
const PAGE_PATTERNS = /* @__PURE__ */ APP_PAGES.map((page) => ({ page, pattern: routePattern(page.path) }));

/** The app's page at `pathname` (no query string), or undefined: the server answers those with 404. */
export const findAppPage = (pathname: string): { path: string; module: string | null } | undefined =>
  PAGE_PATTERNS.find(({ pattern }) => pattern.test(pathname))?.page;

/** True when `pathname` (no query string) is one of the app's pages. */
export const isAppRoute = (pathname: string): boolean => findAppPage(pathname) !== undefined;

/** `robots.txt`: everything may be crawled except the signed-in pages. */
export const robotsTxt = (): string => ['User-agent: *', ...SIGNED_IN_PATHS.map((p) => `Disallow: ${p}`), ''].join('\n');

/** The id of the `<script type="application/json">` that carries the first answers of a page (ADR 0040). */
export const INLINE_ANSWERS_ELEMENT_ID = 'inline-answers';

/**
 * The id of the `<script type="application/json">` that lists the code a page may load later (its
 * wizard steps, dialogs): the app prefetches it once the page is drawn and the browser idle (ADR 0040).
 */
export const LATER_CODE_ELEMENT_ID = 'later-code';

/** CONTRACT "Orders and catalogues": the level list a site category's level field reads. */
export const levelListForCategory = (category: number): 'resume_levels' | 'thesis_levels' | 'academic_levels' =>
  category === SITE_CATEGORY.resume ? 'resume_levels' : category === SITE_CATEGORY.thesis ? 'thesis_levels' : 'academic_levels';
