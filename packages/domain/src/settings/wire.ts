import { z } from 'zod';
import { PAYMENT_SYSTEMS } from './rules/payment-systems';

/** CONTRACT: `{ "<siteCategory>": { "<workType>": [...], "default": [...] } }`. */
export const paymentsRulesSchema = z.record(z.string(), z.record(z.string(), z.array(z.enum(PAYMENT_SYSTEMS))));

/** SPEC §3 "Site settings". */
export const siteSettingsSchema = z.object({
  siteCategories: z.array(z.number().int()),
  languageCode: z.string(),
  idSite: z.number().int(),
  stepEnabled: z.boolean(),
  application_theme: z.object({ mainColor: z.string() }),
  payments_rules: paymentsRulesSchema,
  site_domain: z.string(),
  email: z.string(),
  multipayment: z.boolean(),
  messages_url: z.string(),
  baseOrderMessengerURL: z.string(),
  baseWebSocketGatewayURL: z.string(),
  disableOrderMessenger: z.boolean(),
  enableExtraQualityCheck: z.boolean(),
  enableOnePageSummary: z.boolean(),
  codeCountry: z.string(),
});
export type SiteSettings = z.infer<typeof siteSettingsSchema>;
