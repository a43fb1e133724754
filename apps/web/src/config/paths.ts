/** SPEC §2 "Screens and routes": every URL of the web app, in one place. */
export const ORDER_INFO_TABS = ['details', 'files', 'messages', 'revisions'] as const;
export type OrderInfoTab = (typeof ORDER_INFO_TABS)[number];

export const LOYALTY_TABS = ['referral', 'discount'] as const;
export type LoyaltyTab = (typeof LOYALTY_TABS)[number];

export const paths = {
  home: '/',
  order: '/order',
  /** SPEC §8: the logout target when on the order wizard. */
  orderFull: '/order?full',
  dashboard: '/dashboard',
  transactions: '/transactions',
  profile: '/profile',
  loyalty: '/loyalty',
  loyaltyTab: (tab: LoyaltyTab) => `/loyalty?tab=${tab}`,
  orderInfoLookup: '/orderinfo',
  /** SPEC §2 order-form query parameters: the wizard editing or cloning an order. */
  orderEdit: (id: number) => `/order?editingOrderId=${id}`,
  orderClone: (id: number) => `/order?cloningOrder=${id}`,
  orderInfo: (id: number | string, tab: OrderInfoTab = 'details') => `/orderinfo/${encodeURIComponent(String(id))}/${tab}`,
  login: '/login',
  logout: '/logout',
  resetPassword: '/reset-password',
  notFound: '/404',
} as const;

/** The query parameters the app reads at startup and on pages (SPEC §2, CONTRACT "Identity"). */
export const QUERY_PARAM = {
  magicLink: 'magicLink',
  confirmEmail: 'confirmEmail',
  resetToken: 'token',
  orderUid: 'id',
  tab: 'tab',
} as const;
