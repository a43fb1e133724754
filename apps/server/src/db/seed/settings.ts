import { PAYMENT_SYSTEMS, type SiteSettings } from '@app/domain';

export const SEEDED_SITE_ID = 1;

/**
 * What site_settings.settings stores: SPEC §3 "Site settings" without idSite (the row key) and the
 * three chat URLs, which the settings route derives from the request or CHAT_BASE_URL (CONTRACT "Serving").
 */
export type StoredSiteSettings = Omit<SiteSettings, 'idSite' | 'messages_url' | 'baseOrderMessengerURL' | 'baseWebSocketGatewayURL'>;

/** CONTRACT "Demo data": siteCategories [1, 3, 4, 5], all four providers, multipayment on. */
export const SITE_SETTINGS: StoredSiteSettings = {
  siteCategories: [1, 3, 4, 5],
  languageCode: 'en',
  stepEnabled: true,
  application_theme: { mainColor: '#1d4ed8' },
  payments_rules: {
    '1': { default: [...PAYMENT_SYSTEMS] },
    // Resume editing is a small ticket: card processors only, no PayPal fee.
    '3': { default: [...PAYMENT_SYSTEMS], '2': ['paycore', 'fondy'] },
    // Thesis reviews are paid by card only.
    '4': { default: [...PAYMENT_SYSTEMS], '4': ['paycore', 'paymentwall'] },
    '5': { default: [...PAYMENT_SYSTEMS] },
  },
  site_domain: 'localhost',
  email: 'support@example.com',
  multipayment: true,
  disableOrderMessenger: false,
  enableExtraQualityCheck: true,
  enableOnePageSummary: true,
  codeCountry: 'us',
};
