import { z } from 'zod';

/** A catalogue entry (work types, paper types, subjects, formats, levels, resume services). */
export const catalogueItemSchema = z.object({ id: z.number().int(), name: z.string() });
export type CatalogueItem = z.infer<typeof catalogueItemSchema>;
export const catalogueListSchema = z.array(catalogueItemSchema);

/** An urgency option, in hours (SPEC §3 "urgency (hours)"). */
export const urgencySchema = z.object({ id: z.number().int(), hours: z.number().int(), name: z.string() });
export type Urgency = z.infer<typeof urgencySchema>;

/**
 * The price tables of GET .../orders/calcs (CONTRACT "Orders and catalogues"): a per-page rate by
 * work type, level and urgency for one site category, and the extras as a percent or a flat amount.
 * Money on the wire is a number with 2 decimals (CONTRACT).
 */
export const priceRateSchema = z.object({
  idWorkType: z.number().int(),
  idLevel: z.number().int(),
  urgency: z.number().int(),
  pricePerPage: z.number(),
});
export const priceExtraSchema = z.object({
  key: z.enum(['premiumWriter', 'preferredWriter', 'extraQualityCheck', 'originalityReport', 'onePageSummary']),
  kind: z.enum(['percent', 'flat']),
  /** percent: whole percent of the basic price; flat: an amount in USD with 2 decimals. */
  value: z.number(),
});
export const calcsSchema = z.object({
  siteCategory: z.number().int(),
  currency: z.literal('USD'),
  rates: z.array(priceRateSchema),
  extras: z.array(priceExtraSchema),
  maxAmountDiscount: z.number(),
});
export type Calcs = z.infer<typeof calcsSchema>;
