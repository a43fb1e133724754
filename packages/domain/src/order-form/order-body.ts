import { z } from 'zod';
import { DISCOUNT_CODE_MAX_LENGTH, DISCOUNT_MESSAGE } from '../discount/rules/index';
import { ORDER_TEXT_LIMITS, ORDER_TEXT_MESSAGE } from './rules/text-limits';

/**
 * An order as the wizard sends it (SPEC §7, CONTRACT "Orders and catalogues"), apart from `wire.ts`:
 * the order detail schema imports that one everywhere, and the raw caps' texts below belong to the
 * wizard's code (ADR 0067: kept out of every other page's first load).
 */
// The same field types as wire.ts's.
const onOff = z.union([z.literal(1), z.literal(2)]);
const id = z.number().int().positive();
const levelFields = {
  academicLevel: id.optional(),
  resumeLevel: id.optional(),
  thesisLevel: id.optional(),
};

/** ADR 0067: every free-text field is capped raw, before any work, with its rule's text. */
const text = (max: number, message: string) => z.string().max(max, message).optional().default('');

export const orderBodySchema = z.object({
  idWorkType: id,
  ...levelFields,
  paperFormat: id.nullable().optional(),
  paperType: id.nullable().optional(),
  resumeService: id.nullable().optional(),
  // 0 is no subject (the wizard's empty choice): SPEC's "Choose the required" text, not a schema error.
  subject: z.number().int().nonnegative().nullable().optional(),
  discountCode: text(DISCOUNT_CODE_MAX_LENGTH, DISCOUNT_MESSAGE.invalid),
  pages: z.number().int().min(1).max(100),
  sources: z.number().int().min(0).max(100),
  idSpacing: onOff,
  topic: text(ORDER_TEXT_LIMITS.titleRawMax, ORDER_TEXT_MESSAGE.invalidTitle),
  paperDetails: text(ORDER_TEXT_LIMITS.detailsMax, ORDER_TEXT_MESSAGE.detailsTooLong),
  credentials: text(ORDER_TEXT_LIMITS.credentialsMax, ORDER_TEXT_MESSAGE.credentialsTooLong),
  urgency: z.number().int().min(1),
  premiumWriter: onOff,
  preferredWriterList: z.array(id).max(20).optional().default([]),
  preferredWriterAnother: z.boolean().optional().default(false),
  originalityReport: onOff,
  extraQualityCheck: onOff,
  onePageSummary: onOff,
  premiumSupport: z.literal(false).optional().default(false),
});
export type OrderBody = z.input<typeof orderBodySchema>;
