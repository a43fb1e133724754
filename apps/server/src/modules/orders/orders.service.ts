import { randomBytes } from 'node:crypto';
import {
  calculatePrice,
  DISCOUNT_MESSAGE,
  checkOrderSubmission,
  DomainError,
  ERROR_CODE,
  isOrderEditable,
  levelFieldForCategory,
  normalizeDiscountCode,
  ORDER_EDIT_MESSAGE,
  ORDER_STATUS,
  priceInputForOrder,
  SITE_CATEGORY_IDS,
  type CheckedOrder,
  type FieldErrors,
  type OrderBodyValues,
  type OrderCatalogues,
  type OrderCount,
  type OrderDetail,
  type OrderList,
  type OrderListItem,
  type OrderListQuery,
  type OrderRef,
  type PreferredWriter,
} from '@app/domain';
import type { Clock } from '../../lib/clock';
import type { CatalogueKind, CatalogueReader } from '../catalogue';
import type { DiscountsService } from '../discounts';
import type { FilesService } from '../files';
import type { PriceTables } from '../pricing';
import type { ReviewsService } from '../reviews';
import type { RevisionsService } from '../revisions';
import { IdempotencyKeyTakenError } from './orders.idempotency.repo';
import { checkIdempotencyKey, replay, requestHash } from './orders.idempotency';
import { DiscountCodeTakenError, type OrderEditHooks, type OrdersRepo } from './orders.repo';
import type { OrderFields } from './orders.rows';
import { listFilter, toOrderDetail, toOrderListItem } from './orders.wire';
import { notFound } from '../../lib/errors';

/** The orders module's orchestration: every rule checked, priced, stored through the repository, mapped by orders.wire.ts. */

const INVALID_ORDER = 'Please check the order form';
const HOUR_MS = 60 * 60 * 1000;

/** CONTRACT "Order uid": random, at least 16 URL-safe characters (22 here, 128 bits). */
const newUid = (): string => randomBytes(16).toString('base64url');

const LEVEL_KIND: Record<ReturnType<typeof levelFieldForCategory>, CatalogueKind> = {
  academicLevel: 'academic_level',
  resumeLevel: 'resume_level',
  thesisLevel: 'thesis_level',
};

const CATEGORY_NOT_FOUND = 'Site category not found';

/** Two orders raced for one single-use code (ADR 0050): the one that lost gets the discount field's error. */
const discountCodeTaken = (): DomainError =>
  new DomainError(ERROR_CODE.validation, INVALID_ORDER, { discountCode: [DISCOUNT_MESSAGE.invalid] });

export interface OrdersServiceDeps {
  repo: OrdersRepo;
  clock: Clock;
  catalogue: CatalogueReader;
  priceTables: PriceTables;
  discounts: DiscountsService;
  files: FilesService;
  reviews: Pick<ReviewsService, 'feedback'>;
  /** ADR 0034: the payments module's part of an edit (open attempts, a forced edit's difference). */
  money: OrderEditHooks;
  /** ADR 0034: what the order page says about money (an amount due, money parked for support). */
  moneyView: { orderMoney(q: { customerId: number; orderId: number }): Promise<{ amountDueCents: number; unapplied: boolean } | null> };
  /** SPEC §3 "activeRevision" (ADR 0044) */
  revisions: Pick<RevisionsService, 'activeRevision'>;
  /** CONTRACT "After payment" (ADR 0084): the delivery, the open proposal, the timeline. */
  afterPayment: {
    orderView(q: { customerId: number; orderId: number }): Promise<Pick<OrderDetail, 'delivery' | 'extensionRequest' | 'events'>>;
  };
}

export const createOrdersService = ({
  repo,
  clock,
  catalogue,
  priceTables,
  discounts,
  files,
  reviews,
  money,
  moneyView,
  revisions,
  afterPayment,
}: OrdersServiceDeps) => {
  const loadCatalogues = async (siteCategory: number): Promise<OrderCatalogues> => {
    const ids = (items: { id: number }[]) => items.map((i) => i.id);
    const category = String(siteCategory);
    const [workTypes, paperTypes, paperFormats, subjects, levels, resumeServices, urgencies] = await Promise.all([
      catalogue.categoryList({ category, kind: 'work_type' }),
      catalogue.categoryList({ category, kind: 'assignment' }),
      catalogue.categoryList({ category, kind: 'paper_format' }),
      catalogue.categoryList({ category, kind: 'subject' }),
      catalogue.list({ kind: LEVEL_KIND[levelFieldForCategory(siteCategory)] }),
      catalogue.list({ kind: 'resume_service' }),
      catalogue.siteUrgencies(),
    ]);
    return {
      workTypes: ids(workTypes),
      paperTypes: ids(paperTypes),
      paperFormats: ids(paperFormats),
      subjects: ids(subjects),
      levels: ids(levels),
      resumeServices: ids(resumeServices),
      urgencies,
    };
  };

  /**
   * Every rule again on the server (ADR 0012): catalogues, form dependencies, text, the discount code, the
   * preferred writers; then the price from the domain function over the database's tables.
   */
  const prepare = async ({
    customerId,
    category,
    body,
    orderId,
  }: {
    customerId: number;
    category: string;
    body: OrderBodyValues;
    orderId?: number;
  }): Promise<OrderFields> => {
    const table = await priceTables.forCategory(category);
    const siteCategory = table.siteCategory;
    const checked = checkOrderSubmission(body, { siteCategory, catalogues: await loadCatalogues(siteCategory) });
    const errors: FieldErrors = checked.ok ? {} : { ...checked.errors };

    let discount: { code: string; percent: number; amountCents: number } | null = null;
    // An empty code is simply no discount; any other refusal is the SPEC §8 discountCode error.
    if (normalizeDiscountCode(body.discountCode) !== '') {
      const resolution = await discounts.resolve({ code: body.discountCode, customerId, premiumWriter: body.premiumWriter === 2, orderId });
      if (resolution.ok) discount = resolution.discount;
      else errors.discountCode = [resolution.message];
    }

    const wanted = [...new Set(body.preferredWriterList)];
    const known = new Set(await repo.existingWriters({ ids: wanted }));
    if (wanted.some((id) => !known.has(id))) errors.preferredWriterList = ['Choose writers from your list of previous writers'];

    if (!checked.ok || Object.keys(errors).length > 0) throw new DomainError(ERROR_CODE.validation, INVALID_ORDER, errors);
    const order: CheckedOrder = checked.order;
    const result = calculatePrice(
      table,
      priceInputForOrder(order, discount ? { percent: discount.percent, amount: discount.amountCents } : undefined),
    );
    if (!result.ok) throw new DomainError(ERROR_CODE.validation, ORDER_EDIT_MESSAGE.noRate);
    return {
      siteCategory,
      workTypeId: order.workType,
      levelId: order.level,
      paperFormatId: order.paperFormat,
      paperTypeId: order.paperType,
      resumeServiceId: order.resumeService,
      subjectId: order.subject,
      title: order.title,
      description: order.description,
      credentials: order.credentials,
      pages: order.pages,
      sources: order.sources,
      spacing: order.spacing,
      urgencyHours: order.urgency,
      premiumWriter: order.premiumWriter,
      extraQualityCheck: order.extraQualityCheck,
      onePageSummary: order.onePageSummary,
      originalityReport: order.originalityReport,
      preferredWriterIds: order.preferredWriters,
      preferredWriterAnother: order.preferredWriterAnother,
      // The deadline runs from now (creation, or the edit of an unpaid order).
      deadline: new Date(clock.now().getTime() + order.urgency * HOUR_MS),
      price: result.price,
      discountCode: discount?.code ?? null,
    };
  };

  return {
    /**
     * CONTRACT "Paths": `{ total, byStatus }` over the customer's non-hidden orders. Every status id of
     * SPEC §4 is present (0 when none), so the dashboard reads a count without guessing.
     */
    count: async ({ customerId }: { customerId: number }): Promise<OrderCount> => {
      const byStatus: Record<string, number> = Object.fromEntries(Object.values(ORDER_STATUS).map((id) => [String(id), 0]));
      let total = 0;
      for (const { statusId, count } of await repo.countByStatus({ customerId })) {
        byStatus[String(statusId)] = count;
        total += count;
      }
      return { total, byStatus };
    },

    /**
     * SPEC §7 create. CONTRACT: status 1; `Idempotency-Key` per customer: the same key and body answer
     * the first order again, another body with that key is a 422, and concurrent twins make one order.
     */
    create: async ({
      customerId,
      category,
      body,
      idempotencyKey,
    }: {
      customerId: number;
      category: string;
      body: OrderBodyValues;
      idempotencyKey: string | undefined;
    }): Promise<OrderRef> => {
      if (idempotencyKey !== undefined) checkIdempotencyKey(idempotencyKey);
      const hash = requestHash(category, body);
      if (idempotencyKey !== undefined) {
        const prior = await repo.findIdempotent({ customerId, key: idempotencyKey });
        if (prior) return replay(prior, hash);
      }
      const fields = await prepare({ customerId, category, body });
      try {
        return await repo.insert({
          customerId,
          uid: newUid(),
          fields,
          now: clock.now(),
          idempotency: idempotencyKey === undefined ? null : { key: idempotencyKey, requestHash: hash },
        });
      } catch (error) {
        if (error instanceof DiscountCodeTakenError) throw discountCodeTaken();
        if (!(error instanceof IdempotencyKeyTakenError) || idempotencyKey === undefined) throw error;
        const prior = await repo.findIdempotent({ customerId, key: idempotencyKey });
        if (!prior) throw error;
        return replay(prior, hash);
      }
    },

    /**
     * SPEC §7 update, CONTRACT: only an unpaid order, or a modified one (10) with `forceEditing`; 409
     * otherwise. Re-validated and re-priced like a new order. The order stays in its category.
     */
    update: async ({
      customerId,
      category,
      orderId,
      body,
      forceEditing,
    }: {
      customerId: number;
      category: string;
      orderId: number;
      body: OrderBodyValues;
      forceEditing: boolean;
    }): Promise<OrderRef> => {
      const state = await repo.findState({ customerId, orderId });
      if (!state || String(state.siteCategory) !== category) throw notFound();
      if (!isOrderEditable(state.statusId, forceEditing)) throw new DomainError(ERROR_CODE.conflict, ORDER_EDIT_MESSAGE.notEditable);
      const fields = await prepare({ customerId, category, body, orderId });
      const editableStatuses = Object.values(ORDER_STATUS).filter((s) => isOrderEditable(s, forceEditing));
      const updated = await repo
        .update({ customerId, orderId, fields, now: clock.now(), editableStatuses, money })
        .catch((error: unknown) => {
          throw error instanceof DiscountCodeTakenError ? discountCodeTaken() : error;
        });
      // The status moved on (a payment) between the check and the update.
      if (!updated) throw new DomainError(ERROR_CODE.conflict, ORDER_EDIT_MESSAGE.notEditable);
      return updated;
    },

    /**
     * CONTRACT "Order list query". ADR 0021: `{category}` must be a site category of SPEC §1 (404
     * otherwise) and the list holds the customer's orders of every category ("All orders").
     */
    list: async ({ customerId, category, query }: { customerId: number; category: string; query: OrderListQuery }): Promise<OrderList> => {
      if (!(SITE_CATEGORY_IDS as readonly number[]).includes(Number(category)) || !/^\d+$/.test(category)) {
        throw notFound(CATEGORY_NOT_FOUND);
      }
      const { rows, total } = await repo.list({
        customerId,
        filter: listFilter(query),
        limit: query.limit,
        offset: (query.page - 1) * query.limit,
      });
      return { orders: rows.map(toOrderListItem), total };
    },

    /** SPEC §7 hide and unhide: the order as the list shows it afterwards; 404 for anyone else's. */
    setHidden: async ({
      customerId,
      orderId,
      hidden,
    }: {
      customerId: number;
      orderId: number;
      hidden: boolean;
    }): Promise<OrderListItem> => {
      if (!(await repo.setHidden({ customerId, orderId, hidden, now: clock.now() }))) throw notFound();
      const row = await repo.findListItem({ customerId, orderId });
      if (!row) throw notFound();
      return toOrderListItem(row);
    },

    /** SPEC §3 "Order" of one of the customer's orders; 404 for anyone else's (CONTRACT). */
    get: async ({ customerId, orderId }: { customerId: number; orderId: number }): Promise<OrderDetail> => {
      const row = await repo.findDetail({ customerId, orderId });
      if (!row) throw notFound();
      const [history, fileForDownload, feedback, orderMoney, activeRevision, afterPaymentView] = await Promise.all([
        repo.statusHistory({ customerId, orderId }),
        files.latestWriterFile({ customerId, orderId }),
        reviews.feedback({ customerId, orderId }),
        moneyView.orderMoney({ customerId, orderId }),
        revisions.activeRevision({ customerId, orderId }),
        afterPayment.orderView({ customerId, orderId }),
      ]);
      return toOrderDetail(row, { history, fileForDownload, feedback, orderMoney, activeRevision, afterPayment: afterPaymentView });
    },

    /** CONTRACT "Paths": `{ id }` of the customer's order with that uid (for `/orderinfo?id={uid}`). */
    idByUid: async ({ customerId, uid }: { customerId: number; uid: string }): Promise<{ id: number }> => {
      const id = await repo.findIdByUid({ customerId, uid });
      if (id === null) throw notFound();
      return { id };
    },

    /** CONTRACT "Paths": the writers of the customer's paid orders, each once. */
    preferredWriters: async ({ customerId }: { customerId: number }): Promise<PreferredWriter[]> => repo.preferredWriters({ customerId }),
  };
};
export type OrdersService = ReturnType<typeof createOrdersService>;
