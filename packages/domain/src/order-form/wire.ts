import { z } from 'zod';
import type { Price } from '../pricing/index';
import { centsToAmount } from '../money/index';

/**
 * The order form on the wire (SPEC §7, CONTRACT "Orders and catalogues"): extras are 1 (off) or 2 (on),
 * idSpacing 1 or 2, the level field's name depends on the site category.
 */
const onOff = z.union([z.literal(1), z.literal(2)]);
const id = z.number().int().positive();

const levelFields = {
  academicLevel: id.optional(),
  resumeLevel: id.optional(),
  thesisLevel: id.optional(),
};

export const priceCalcBodySchema = z.object({
  idWorkType: id,
  ...levelFields,
  discountAmount: z.number().min(0).optional().default(0),
  discountPercent: z.number().min(0).max(100).optional().default(0),
  pages: z.number().int().min(1).max(100),
  idSpacing: onOff,
  urgency: z.number().int().min(1),
  premiumWriter: onOff,
  preferredWriterList: z.array(id).max(20).optional().default([]),
  preferredWriterAnother: z.boolean().optional().default(false),
  originalityReport: onOff,
  extraQualityCheck: onOff,
  onePageSummary: onOff,
});
export type PriceCalcBody = z.input<typeof priceCalcBodySchema>;

/** SPEC §3 "Price" on the wire: numbers with 2 decimals. */
export const priceResponseSchema = z.object({
  basicPrice: z.number(),
  finalPrice: z.number(),
  pricePremiumWriter: z.number(),
  pricePreferedWriter: z.number(),
  priceExtraQualityCheck: z.number(),
  priceQuality: z.number(),
  priceOnePageSummary: z.number(),
  priceDiscount: z.number(),
});
export type PriceResponse = z.infer<typeof priceResponseSchema>;

export const priceToWire = (price: Price): PriceResponse => ({
  basicPrice: centsToAmount(price.basicPrice),
  finalPrice: centsToAmount(price.finalPrice),
  pricePremiumWriter: centsToAmount(price.pricePremiumWriter),
  pricePreferedWriter: centsToAmount(price.pricePreferedWriter),
  priceExtraQualityCheck: centsToAmount(price.priceExtraQualityCheck),
  priceQuality: centsToAmount(price.priceQuality),
  priceOnePageSummary: centsToAmount(price.priceOnePageSummary),
  priceDiscount: centsToAmount(price.priceDiscount),
});
