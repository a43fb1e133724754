import { z } from 'zod';
import { UPGRADE_EXTRAS, UPGRADE_MESSAGE } from './rules/index';

// ADR 0086: the bodies and answers of CONTRACT "After payment", scope change. The shape is checked here
// (sizes bounded before any work); what the values may be (more pages, a listed urgency, known extras) is
// the rule's, with its texts.

/** `PUT …/orders/{id}/upgrade/calcs` and `POST …/orders/{id}/upgrade`: `{ pages?, urgency?, extras }`. */
export const upgradeBodySchema = z.object({
  pages: z.number().int(UPGRADE_MESSAGE.pagesNotWhole).min(-100_000).max(100_000).optional(),
  urgency: z
    .number()
    .int(UPGRADE_MESSAGE.unknownUrgency)
    .min(-100_000, UPGRADE_MESSAGE.unknownUrgency)
    .max(100_000, UPGRADE_MESSAGE.unknownUrgency)
    .optional(),
  extras: z
    .array(z.string().max(64))
    .max(UPGRADE_EXTRAS.length * 2, UPGRADE_MESSAGE.tooManyExtras)
    .default([]),
});
export type UpgradeBody = z.infer<typeof upgradeBodySchema>;

const extrasFlagsSchema = z.object({
  premiumWriter: z.boolean(),
  extraQualityCheck: z.boolean(),
  onePageSummary: z.boolean(),
  originalityReport: z.boolean(),
});

/** The preview: CONTRACT's `{ difference }` and what the dialog shows beside it (USD with 2 decimals). */
export const upgradeQuoteSchema = z.object({
  difference: z.number(),
  currentPrice: z.number(),
  newPrice: z.number(),
  pages: z.number().int(),
  urgency: z.number().int(),
  deadline: z.string(),
  extras: extrasFlagsSchema,
});
export type UpgradeQuote = z.infer<typeof upgradeQuoteSchema>;

/** `POST …/upgrade` → CONTRACT's `{ upgradeId, difference }` and the same preview. */
export const upgradeCreatedSchema = upgradeQuoteSchema.extend({ upgradeId: z.string() });
export type UpgradeCreated = z.infer<typeof upgradeCreatedSchema>;
