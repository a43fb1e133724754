import { z } from 'zod';
import { calcsSchema, priceExtraSchema, priceRateSchema, urgencySchema } from '../catalogue/index';
import { ADMIN_DISCOUNT_LIMIT_MAX } from './rules/index';

const id = z.coerce.number().int().min(1).max(2_147_483_647);

/** CONTRACT "Staff side": `GET /api/staff/audit?page&limit&orderId&actorId`. */
export const auditQuerySchema = z.object({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  orderId: id.optional(),
  actorId: id.optional(),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;
/** The CSV export takes the same filters, without paging (at most AUDIT_CSV_MAX_ROWS rows, newest first). */
export const auditCsvQuerySchema = auditQuerySchema.pick({ orderId: true, actorId: true });
export const AUDIT_CSV_MAX_ROWS = 50_000;

export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  actorId: z.number().int().nullable(),
  action: z.string(),
  orderId: z.number().int().optional(),
  before: z.unknown(),
  after: z.unknown(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditListSchema = z.object({ entries: z.array(auditEntrySchema), total: z.number().int() });
export type AuditList = z.infer<typeof auditListSchema>;

/** `GET /api/staff/admin/prices`: every offered category's tables as `…/calcs` serves them, and the site's urgencies. */
export const adminPricesSchema = z.object({ categories: z.array(calcsSchema), urgencies: z.array(urgencySchema) });
export type AdminPrices = z.infer<typeof adminPricesSchema>;
/** `PUT /api/staff/admin/prices`: one category's rows (new quotes only; orders keep their stored price). */
export const adminPricesBodySchema = z.object({
  siteCategory: z.number().int().min(1).max(5),
  rates: z.array(priceRateSchema).max(5_000),
  extras: z.array(priceExtraSchema).max(10),
  maxAmountDiscount: z.number().min(0).max(1_000_000),
});
export type AdminPricesBody = z.infer<typeof adminPricesBodySchema>;

const limit = z.number().int().min(1).max(ADMIN_DISCOUNT_LIMIT_MAX).nullable();
const when = z.iso.datetime({ offset: true }).nullable();

/** An admin's discount code with its uses and revenue (ADR 0090). */
export const adminDiscountSchema = z.object({
  id: z.number().int(),
  code: z.string(),
  /** whole percent; 0 for a fixed-amount code */
  percent: z.number().int(),
  /** fixed amount in USD; 0 for a percent code */
  amount: z.number(),
  firstOrderOnly: z.boolean(),
  perCustomerLimit: z.number().int().nullable(),
  totalLimit: z.number().int().nullable(),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  isTopWriterDiscount: z.boolean(),
  active: z.boolean(),
  /** optimistic concurrency: send it back with an edit; another save in between answers 409 */
  version: z.number().int(),
  updatedAt: z.string(),
  /** orders placed with the code, not canceled */
  uses: z.number().int(),
  /** what those orders paid (not refunded), USD */
  revenue: z.number(),
});
export type AdminDiscount = z.infer<typeof adminDiscountSchema>;
export const adminDiscountListSchema = z.object({ discounts: z.array(adminDiscountSchema) });
export type AdminDiscountList = z.infer<typeof adminDiscountListSchema>;

export const adminDiscountBodySchema = z.object({
  code: z.string().trim().max(64),
  percent: z.number().int().min(-1_000).max(1_000).default(0),
  amount: z.number().min(-1_000_000).max(1_000_000).default(0),
  firstOrderOnly: z.boolean().default(false),
  perCustomerLimit: limit.default(null),
  totalLimit: limit.default(null),
  startsAt: when.default(null),
  endsAt: when.default(null),
  isTopWriterDiscount: z.boolean().default(false),
  active: z.boolean().default(true),
});
export type AdminDiscountBody = z.infer<typeof adminDiscountBodySchema>;
export const adminDiscountUpdateBodySchema = adminDiscountBodySchema.extend({ version: z.number().int().min(1) });
export type AdminDiscountUpdateBody = z.infer<typeof adminDiscountUpdateBodySchema>;

/** Staff accounts as an admin manages them. */
export const STAFF_ROLE_NAMES = ['writer', 'support', 'admin'] as const;
export const adminStaffSchema = z.object({
  id: z.number().int(),
  role: z.number().int(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  active: z.boolean(),
  twoFactor: z.boolean(),
});
export type AdminStaff = z.infer<typeof adminStaffSchema>;
export const adminStaffListSchema = z.object({ staff: z.array(adminStaffSchema) });
export type AdminStaffList = z.infer<typeof adminStaffListSchema>;
export const adminStaffBodySchema = z.object({
  role: z.enum(STAFF_ROLE_NAMES),
  email: z.string().trim().max(254),
  firstName: z.string().trim().min(1).max(100),
  lastName: z.string().trim().max(100).default(''),
});
export type AdminStaffBody = z.infer<typeof adminStaffBodySchema>;

/** Two-factor sign-in (TOTP) of the signed-in staff member. */
export const twoFactorStatusSchema = z.object({ enabled: z.boolean(), required: z.boolean() });
export type TwoFactorStatus = z.infer<typeof twoFactorStatusSchema>;
export const twoFactorSetupSchema = z.object({ secret: z.string(), otpauthUrl: z.string(), qrSvg: z.string() });
export type TwoFactorSetup = z.infer<typeof twoFactorSetupSchema>;
export const twoFactorCodeBodySchema = z.object({ code: z.string().trim().max(10) });
