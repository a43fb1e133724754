import { ACCOUNT_DELETION_PARAM, APP_PATH, EMAIL_CHANGE_PARAM, MAGIC_LINK_PARAM, ORDER_INFO_TAB_NAMES } from '@app/domain/routes';

/** SPEC §2 "Screens and routes": every URL of the web app, in one place (the paths: packages/domain, shared with the server). */
export const ORDER_INFO_TABS = ORDER_INFO_TAB_NAMES;
export type OrderInfoTab = (typeof ORDER_INFO_TABS)[number];

export const LOYALTY_TABS = ['referral', 'discount'] as const;
export type LoyaltyTab = (typeof LOYALTY_TABS)[number];

export const paths = {
  home: APP_PATH.home,
  order: APP_PATH.order,
  /** SPEC §8: the logout target when on the order wizard. */
  orderFull: '/order?full',
  dashboard: APP_PATH.dashboard,
  transactions: APP_PATH.transactions,
  profile: APP_PATH.profile,
  loyalty: APP_PATH.loyalty,
  loyaltyTab: (tab: LoyaltyTab) => `/loyalty?tab=${tab}`,
  orderInfoLookup: APP_PATH.orderInfoLookup,
  /** SPEC §2 order-form query parameters: the wizard editing or cloning an order. */
  orderEdit: (id: number) => `/order?editingOrderId=${id}`,
  orderClone: (id: number) => `/order?cloningOrder=${id}`,
  orderInfo: (id: number | string, tab: OrderInfoTab = 'details') => `/orderinfo/${encodeURIComponent(String(id))}/${tab}`,
  login: APP_PATH.login,
  logout: APP_PATH.logout,
  resetPassword: APP_PATH.resetPassword,
  notFound: APP_PATH.notFound,
  /** ADR 0059: the staff console (writers and support). */
  staff: APP_PATH.staff,
  staffMoney: `${APP_PATH.staff}/money`,
  staffOrder: (id: number) => `${APP_PATH.staff}/orders/${id}`,
  /** ADR 0090: two-factor sign-in (any staff) and the admin section. */
  staffTwoFactor: `${APP_PATH.staff}/two-factor`,
  staffAdmin: (section: 'prices' | 'discounts' | 'staff' | 'audit') => `${APP_PATH.staff}/admin/${section}`,
  /** ADR 0041: served by the server from the operator's text, outside the app. */
  terms: APP_PATH.terms,
  privacy: APP_PATH.privacy,
} as const;

/** The query parameters the app reads at startup and on pages (SPEC §2, CONTRACT "Identity"). */
export const QUERY_PARAM = {
  magicLink: MAGIC_LINK_PARAM,
  confirmEmail: 'confirmEmail',
  /** ADR 0097: the email change link mailed to the new address. */
  changeEmail: EMAIL_CHANGE_PARAM,
  /** ADR 0070: the deletion link mailed to an account without a password. */
  deleteAccount: ACCOUNT_DELETION_PARAM,
  resetToken: 'token',
  orderUid: 'id',
  tab: 'tab',
} as const;
