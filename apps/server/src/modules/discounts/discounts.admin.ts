import {
  ADMIN_MESSAGE,
  adminCodeProblems,
  amountToCents,
  AUDIT_ACTION,
  centsToAmount,
  DomainError,
  ERROR_CODE,
  ORDER_STATUS,
  type AdminDiscount,
  type AdminDiscountBody,
  type AdminDiscountList,
  type AdminDiscountUpdateBody,
} from '@app/domain';
import { isUniqueViolation, type Db } from '../../db/client';
import type { Actor } from '../../lib/actor';
import type { Clock } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import { recordAudit } from '../audit';
import { publicCodesWithUsage } from './discounts.repo';
import { discountCodeWrites, type PublicCodeFields, type PublicCodeRow } from './discounts.writes.repo';

/** The statuses whose money the business kept: a code's revenue (ADR 0090). */
const KEPT_MONEY: readonly number[] = [ORDER_STATUS.paid, ORDER_STATUS.inProgress, ORDER_STATUS.completed, ORDER_STATUS.hold];

/** What the audit log keeps of a code: every field an admin sets, and its version. */
const auditOf = (r: PublicCodeRow) => ({
  id: r.id,
  code: r.code,
  percent: r.percent,
  amount: centsToAmount(r.amount_cents),
  firstOrderOnly: r.first_order_only,
  perCustomerLimit: r.per_customer_limit,
  totalLimit: r.total_limit,
  startsAt: r.starts_at?.toISOString() ?? null,
  endsAt: r.expires_at?.toISOString() ?? null,
  isTopWriterDiscount: r.is_top_writer_discount,
  active: r.active,
  version: r.version,
});

const toWire = (r: PublicCodeRow & { uses: number; revenue_cents: number | string }): AdminDiscount => ({
  ...auditOf(r),
  updatedAt: r.updated_at.toISOString(),
  uses: r.uses,
  revenue: centsToAmount(Number(r.revenue_cents)),
});

const fieldsOf = (body: AdminDiscountBody): PublicCodeFields => {
  const problems = adminCodeProblems(body);
  if (Object.keys(problems).length > 0) {
    const first = Object.values(problems)[0]?.[0] ?? ADMIN_MESSAGE.noDiscount;
    throw new DomainError(ERROR_CODE.validation, first, problems);
  }
  return {
    code: body.code,
    percent: body.percent,
    amountCents: amountToCents(body.amount),
    firstOrderOnly: body.firstOrderOnly,
    perCustomerLimit: body.perCustomerLimit,
    totalLimit: body.totalLimit,
    startsAt: body.startsAt ? new Date(body.startsAt) : null,
    endsAt: body.endsAt ? new Date(body.endsAt) : null,
    isTopWriterDiscount: body.isTopWriterDiscount,
    active: body.active,
  };
};

const codeTaken = () => new DomainError(ERROR_CODE.conflict, ADMIN_MESSAGE.codeTaken, { code: [ADMIN_MESSAGE.codeTaken] });

/**
 * ADR 0090: public discount codes as an admin manages them: listed with their uses and revenue, created,
 * edited under optimistic concurrency (the version read with the code), each change audited in its own
 * transaction. Customers' own codes (loyalty, referral) are not listed or edited here.
 */
export const createDiscountAdmin = ({ db, clock }: { db: Db; clock: Clock }) => {
  const one = async (id: number): Promise<AdminDiscount> => {
    const list = await rows(id);
    const row = list[0];
    if (!row) throw notFound();
    return row;
  };
  const rows = async (id: number | null): Promise<AdminDiscount[]> =>
    (await publicCodesWithUsage(db, { id, keptMoney: KEPT_MONEY })).map(toWire);

  return {
    list: async (): Promise<AdminDiscountList> => ({ discounts: await rows(null) }),

    create: async ({ actor, body }: { actor: Actor; body: AdminDiscountBody }): Promise<AdminDiscount> => {
      const fields = fieldsOf(body);
      const now = clock.now();
      let id: number;
      try {
        id = await db.transaction(async (tx) => {
          const row = await discountCodeWrites(tx).insertPublicCode({ ...fields, now });
          if (!row) throw codeTaken();
          await recordAudit(tx, { actor, action: AUDIT_ACTION.discountCreate, before: null, after: auditOf(row), at: now });
          return row.id;
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw codeTaken();
        throw error;
      }
      return one(id);
    },

    /** 409 with a message when another admin saved the code after `body.version` was read. */
    update: async ({ actor, id, body }: { actor: Actor; id: number; body: AdminDiscountUpdateBody }): Promise<AdminDiscount> => {
      const fields = fieldsOf(body);
      const now = clock.now();
      try {
        await db.transaction(async (tx) => {
          const writes = discountCodeWrites(tx);
          const before = await writes.lockPublicCode(id);
          if (!before) throw notFound();
          if (before.version !== body.version) throw new DomainError(ERROR_CODE.conflict, ADMIN_MESSAGE.codeEditedElsewhere);
          const after = await writes.updatePublicCode({ ...fields, id, version: body.version, now });
          if (!after) throw new DomainError(ERROR_CODE.conflict, ADMIN_MESSAGE.codeEditedElsewhere);
          await recordAudit(tx, { actor, action: AUDIT_ACTION.discountUpdate, before: auditOf(before), after: auditOf(after), at: now });
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw codeTaken();
        throw error;
      }
      return one(id);
    },
  };
};
export type DiscountAdmin = ReturnType<typeof createDiscountAdmin>;
