import { createHash, randomBytes } from 'node:crypto';
import {
  calculatePrice,
  centsToAmount,
  checkOrderSubmission,
  DomainError,
  ERROR_CODE,
  isOrderEditable,
  levelFieldForCategory,
  normalizeDiscountCode,
  ORDER_EDIT_MESSAGE,
  ORDER_STATUS,
  ORDER_STATUS_NAME,
  priceInputForOrder,
  priceToWire,
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
  type OrderStatusId,
  type Price,
  type PreferredWriter,
} from '@app/domain';
import type { Clock } from '../../lib/clock';
import type { CatalogueKind, CatalogueReader } from '../catalogue';
import type { DiscountsService } from '../discounts';
import type { FilesService } from '../files';
import type { PriceTables } from '../pricing';
import type { ReviewsService } from '../reviews';
import type { RevisionsService } from '../revisions';
import { IdempotencyKeyTakenError, type OrderDetailRow, type OrderEditHooks, type OrderFields, type OrderListFilter, type OrderListRow, type OrdersRepo } from './orders.repo';
import { parseId } from '../../lib/ids';

const NOT_FOUND = 'Not found';
const INVALID_ORDER = 'Please check the order form';
const HOUR_MS = 60 * 60 * 1000;
/** CONTRACT leaves the key's form open: any printable ASCII, as the IETF draft allows. */
const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** CONTRACT "Order uid": random, at least 16 URL-safe characters (22 here, 128 bits). */
const newUid = (): string => randomBytes(16).toString('base64url');

/** Key order does not change the hash: the same body, however serialised, is the same request. */
const canonical = (value: unknown): unknown =>
  Array.isArray(value)
    ? value.map(canonical)
    : value !== null && typeof value === 'object'
      ? Object.fromEntries(Object.keys(value).sort().map((k) => [k, canonical((value as Record<string, unknown>)[k])]))
      : value;
const requestHash = (category: string, body: OrderBodyValues): string =>
  createHash('sha256').update(JSON.stringify({ category, body: canonical(body) })).digest('hex');

const LEVEL_KIND: Record<ReturnType<typeof levelFieldForCategory>, CatalogueKind> = {
  academicLevel: 'academic_level',
  resumeLevel: 'resume_level',
  thesisLevel: 'thesis_level',
};

const onOff = (on: boolean): 1 | 2 => (on ? 2 : 1);
const named = (ref: { id: number; name: string | null } | null) => (ref ? { id: ref.id, name: ref.name ?? '' } : null);

const priceOf = (row: OrderDetailRow): Price => ({
  basicPrice: row.priceBreakdown.basicPrice ?? 0,
  finalPrice: row.priceBreakdown.finalPrice ?? row.finalPriceCents,
  pricePremiumWriter: row.priceBreakdown.pricePremiumWriter ?? 0,
  pricePreferedWriter: row.priceBreakdown.pricePreferedWriter ?? 0,
  priceExtraQualityCheck: row.priceBreakdown.priceExtraQualityCheck ?? 0,
  priceQuality: row.priceBreakdown.priceQuality ?? 0,
  priceOnePageSummary: row.priceBreakdown.priceOnePageSummary ?? 0,
  priceDiscount: row.priceBreakdown.priceDiscount ?? row.discountCents,
});

const DAY_MS = 24 * HOUR_MS;
const CATEGORY_NOT_FOUND = 'Site category not found';

/** `YYYY-MM-DD` (already checked by the query schema) as the instant its UTC day starts. */
const utcDayStart = (day: string): Date => new Date(`${day}T00:00:00Z`);

/** CONTRACT "Order list query" turned into the repository's filter. */
const listFilter = (query: OrderListQuery): OrderListFilter => {
  const q = query.q?.trim().toLowerCase() ?? '';
  const idText = /^#?(\d{1,10})$/.exec(q)?.[1];
  const searchId = idText === undefined ? null : Number(idText);
  return {
    hidden: query.hidden === '1',
    statusId: query.status ?? null,
    orderId: query.idOrder ?? null,
    createdFrom: query.dateFrom ? utcDayStart(query.dateFrom) : null,
    // Both days included: up to the start of the day after dateTo.
    createdBefore: query.dateTo ? new Date(utcDayStart(query.dateTo).getTime() + DAY_MS) : null,
    search: q === '' ? null : { text: q, id: searchId !== null && searchId <= 2_147_483_647 ? searchId : null },
  };
};

/** An order as lists show it on the wire (the customer's list; staff's queue adds its own fields). */
export const toOrderListItem = (row: OrderListRow): OrderListItem => ({
  id: row.id,
  uid: row.uid,
  title: row.title,
  workType: { id: row.workType.id, name: row.workType.name ?? '' },
  siteCategory: row.siteCategory,
  status: row.statusId,
  orderStatus: { id: row.statusId, name: ORDER_STATUS_NAME[row.statusId as OrderStatusId] ?? 'Unknown' },
  deadline: row.deadline.toISOString(),
  dateCreated: row.createdAt.toISOString(),
  finalPrice: centsToAmount(row.finalPriceCents),
  hidden: row.hidden ? 'YES' : 'no',
  pending: row.pending,
  pages: row.pages,
  // Issue 10: the customer's unread staff messages (the chat's read pointers, ADR 0047).
  unread: row.unread,
});

export interface OrdersServiceDeps {
  repo: OrdersRepo;
  clock: Clock;
  catalogue: CatalogueReader;
  priceTables: PriceTables;
  discounts: DiscountsService;
  files: FilesService;
  reviews: Pick<ReviewsService, 'feedback'>;
  /** Issue 8: the payments module's part of an edit (open attempts, a forced edit's difference). */
  money: OrderEditHooks;
  /** Issue 8: what the order page says about money (an amount due, money parked for support). */
  moneyView: { orderMoney(q: { customerId: number; orderId: number }): Promise<{ amountDueCents: number; unapplied: boolean } | null> };
  /** SPEC §3 "activeRevision" (issue 11) */
  revisions: Pick<RevisionsService, 'activeRevision'>;
}

export const createOrdersService = ({ repo, clock, catalogue, priceTables, discounts, files, reviews, money, moneyView, revisions }: OrdersServiceDeps) => {
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
   * Every rule again on the server (issue 3): catalogues, form dependencies, text, the discount code, the
   * preferred writers; then the price from the domain function over the database's tables.
   */
  const prepare = async ({ customerId, category, body, orderId }: { customerId: number; category: string; body: OrderBodyValues; orderId?: number }): Promise<OrderFields> => {
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

  const replay = (prior: { requestHash: string; id: number; uid: string }, hash: string): OrderRef => {
    if (prior.requestHash !== hash) throw new DomainError(ERROR_CODE.validation, ORDER_EDIT_MESSAGE.idempotencyMismatch);
    return { id: prior.id, uid: prior.uid };
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
      if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY_PATTERN.test(idempotencyKey)) {
        throw new DomainError(ERROR_CODE.validation, 'Idempotency-Key must be 1 to 255 printable characters');
      }
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
      orderId: rawOrderId,
      body,
      forceEditing,
    }: {
      customerId: number;
      category: string;
      orderId: string;
      body: OrderBodyValues;
      forceEditing: boolean;
    }): Promise<OrderRef> => {
      const orderId = parseId(rawOrderId);
      const state = await repo.findState({ customerId, orderId });
      if (!state || String(state.siteCategory) !== category) throw new DomainError(ERROR_CODE.notFound, NOT_FOUND);
      if (!isOrderEditable(state.statusId, forceEditing)) throw new DomainError(ERROR_CODE.conflict, ORDER_EDIT_MESSAGE.notEditable);
      const fields = await prepare({ customerId, category, body, orderId });
      const editableStatuses = Object.values(ORDER_STATUS).filter((s) => isOrderEditable(s, forceEditing));
      const updated = await repo.update({ customerId, orderId, fields, now: clock.now(), editableStatuses, money });
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
        throw new DomainError(ERROR_CODE.notFound, CATEGORY_NOT_FOUND);
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
    setHidden: async ({ customerId, orderId: rawOrderId, hidden }: { customerId: number; orderId: string; hidden: boolean }): Promise<OrderListItem> => {
      const orderId = parseId(rawOrderId);
      if (!(await repo.setHidden({ customerId, orderId, hidden, now: clock.now() }))) throw new DomainError(ERROR_CODE.notFound, NOT_FOUND);
      const row = await repo.findListItem({ customerId, orderId });
      if (!row) throw new DomainError(ERROR_CODE.notFound, NOT_FOUND);
      return toOrderListItem(row);
    },

    /** SPEC §3 "Order" of one of the customer's orders; 404 for anyone else's (CONTRACT). */
    get: async ({ customerId, orderId: rawOrderId }: { customerId: number; orderId: string }): Promise<OrderDetail> => {
      const orderId = parseId(rawOrderId);
      const row = await repo.findDetail({ customerId, orderId });
      if (!row) throw new DomainError(ERROR_CODE.notFound, NOT_FOUND);
      const [history, fileForDownload, feedback, orderMoney, activeRevision] = await Promise.all([
        repo.statusHistory({ customerId, orderId }),
        files.latestWriterFile({ customerId, orderId }),
        reviews.feedback({ customerId, orderId }),
        moneyView.orderMoney({ customerId, orderId }),
        revisions.activeRevision({ customerId, orderId }),
      ]);
      const levelField = levelFieldForCategory(row.siteCategory);
      const level = { id: row.level.id, name: row.level.name ?? '' };
      const price = priceOf(row);
      return {
        id: row.id,
        uid: row.uid,
        title: row.title,
        siteCategory: row.siteCategory,
        workType: { id: row.workType.id, name: row.workType.name ?? '' },
        status: row.statusId,
        orderStatus: { id: row.statusId, name: ORDER_STATUS_NAME[row.statusId as OrderStatusId] ?? 'Unknown' },
        finalPrice: centsToAmount(row.finalPriceCents),
        price: priceToWire(price),
        discount: row.discountCode ? { code: row.discountCode, amount: centsToAmount(row.discountCents) } : null,
        deadline: row.deadline.toISOString(),
        dateCreated: row.createdAt.toISOString(),
        hidden: row.hidden ? 'YES' : 'no',
        activeRevision,
        pending: row.pending,
        fileForDownload,
        feedback,
        features: {
          premiumWriter: onOff(row.premiumWriter),
          extraQualityCheck: onOff(row.extraQualityCheck),
          onePageSummary: onOff(row.onePageSummary),
          originalityReport: onOff(row.originalityReport),
        },
        preferredWritersList: row.preferredWriterIds,
        preferredWriterAnother: row.preferredWriterAnother,
        idWriter: row.writerId,
        description: row.description,
        credentials: row.credentials,
        pages: row.pages,
        sources: row.sources,
        urgency: row.urgencyHours,
        paragraphSpacing: row.spacing === 1 ? 1 : 2,
        subject: named(row.subject),
        assignment: named(row.paperType),
        resumeService: named(row.resumeService),
        paperFormat: named(row.paperFormat),
        academicLevel: levelField === 'academicLevel' ? level : null,
        resumeLevel: levelField === 'resumeLevel' ? level : null,
        thesisLevel: levelField === 'thesisLevel' ? level : null,
        statusHistory: history.map((h) => ({ status: h.status, date: h.date.toISOString() })),
        ...(orderMoney && orderMoney.amountDueCents > 0 ? { amountDue: centsToAmount(orderMoney.amountDueCents) } : {}),
        ...(orderMoney?.unapplied ? { unappliedPayment: true as const } : {}),
      };
    },

    /** CONTRACT "Paths": `{ id }` of the customer's order with that uid (for `/orderinfo?id={uid}`). */
    idByUid: async ({ customerId, uid }: { customerId: number; uid: string }): Promise<{ id: number }> => {
      const id = await repo.findIdByUid({ customerId, uid });
      if (id === null) throw new DomainError(ERROR_CODE.notFound, NOT_FOUND);
      return { id };
    },

    /** CONTRACT "Paths": the writers of the customer's paid orders, each once. */
    preferredWriters: async ({ customerId }: { customerId: number }): Promise<PreferredWriter[]> => repo.preferredWriters({ customerId }),
  };
};
export type OrdersService = ReturnType<typeof createOrdersService>;
