import { z } from 'zod';
import { REVISIONS_PAGE_SIZE } from '../order/rules/index';
import { rawTextMax } from '../text/index';
import { isRevisionStatusId, REVISION_DESCRIPTION_MAX_LENGTH, REVISION_MESSAGE } from './rules/index';

const named = z.object({ id: z.number().int(), name: z.string() });

/** SPEC §3 "Revision" on the wire; dates ISO 8601 UTC. */
export const revisionSchema = z.object({
  id: z.number().int(),
  idOrder: z.number().int(),
  revisionStatus: named,
  /** the ETA: request time plus the level's hours (SPEC §9) */
  deadline: z.string(),
  dateCreated: z.string(),
  categories: z.array(named),
  description: z.string(),
  revisionLevel: named,
  /** every status the revision has had, oldest first, with its time */
  statusHistory: z.array(z.object({ status: z.number().int(), date: z.string() })),
});
export type Revision = z.infer<typeof revisionSchema>;

/** The order's revision window and its active revision, beside the list (ADR 0044). */
export const revisionWindowSchema = z.object({
  /** when free revisions end; null while the order is not completed */
  until: z.string().nullable(),
  open: z.boolean(),
  daysLeft: z.number().int(),
});

/** `GET /api/en/orders/revisions?idOrder&page&limit`: newest first, 10 a page (SPEC §9). */
export const revisionListSchema = z.object({
  revisions: z.array(revisionSchema),
  total: z.number().int(),
  window: revisionWindowSchema,
  activeRevision: z.object({ id: z.number().int() }).nullable(),
});
export type RevisionList = z.infer<typeof revisionListSchema>;

export const revisionListQuerySchema = z.object({
  idOrder: z.coerce.number().int().min(1).max(2_147_483_647),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(REVISIONS_PAGE_SIZE),
});
export type RevisionListQuery = z.infer<typeof revisionListQuerySchema>;

/**
 * `POST /api/en/orders/{id}/revisions` (SPEC §3, §7) as read: the server checks the ids and the
 * description itself so a refusal carries SPEC-style messages by field; here only bounds on what is read.
 */
export const revisionCreateBodySchema = z.object({
  category: z.array(z.coerce.number().int().min(-1_000_000).max(1_000_000)).max(50).default([]),
  describeProblem: z.string().max(rawTextMax(REVISION_DESCRIPTION_MAX_LENGTH), REVISION_MESSAGE.descriptionTooLong).default(''),
  revisionLevel: z.coerce.number().int().min(-1_000_000).max(1_000_000).nullable().default(null),
});
export type RevisionCreateBody = z.infer<typeof revisionCreateBodySchema>;
export const revisionRefSchema = z.object({ id: z.number().int() });

export const revisionCategoryListSchema = z.array(named);
export const revisionLevelListSchema = z.array(named.extend({ hours: z.number().int() }));

/** `PUT /api/staff/revisions/{id}/status` (CONTRACT "Staff side"). */
export const staffRevisionStatusBodySchema = z.object({
  status: z.coerce.number().int().refine(isRevisionStatusId, 'Unknown revision status'),
});
/** Staff's revision rows: the customer's view plus the order's customer and writer. */
export const staffRevisionSchema = revisionSchema.extend({ idCustomer: z.number().int(), idWriter: z.number().int().nullable() });
export type StaffRevision = z.infer<typeof staffRevisionSchema>;
export const staffRevisionListSchema = z.object({ revisions: z.array(staffRevisionSchema), total: z.number().int() });
export type StaffRevisionList = z.infer<typeof staffRevisionListSchema>;
export const staffRevisionQuerySchema = z.object({
  idOrder: z.coerce.number().int().min(1).max(2_147_483_647).optional(),
  status: z.coerce.number().int().refine(isRevisionStatusId, 'Unknown revision status').optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});
export type StaffRevisionQuery = z.infer<typeof staffRevisionQuerySchema>;
