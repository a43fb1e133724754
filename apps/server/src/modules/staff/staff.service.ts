import {
  amountToCents,
  AUDIT_ACTION,
  assertOrderMove,
  centsToAmount,
  DomainError,
  ERROR_CODE,
  MOVE_BY,
  orderCharge,
  ORDER_STATUS,
  STAFF_MESSAGE,
  STAFF_SEARCH_MIN_LENGTH,
  statusChangedBy,
  type ManualPaymentBody,
  type OrderFile,
  type StaffMe,
  type StaffOrder,
  type StaffOrderFileList,
  type StaffOrderList,
  type StaffOrderQuery,
  type StaffOrderView,
  type StaffView,
  type StaffViewCounts,
  type StaffWriterList,
  STAFF_VIEWS,
  writerDeadline,
  writerPayCents,
} from '@app/domain';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import type { Logger } from '../../lib/logger';
import type { FilesService } from '../files';
import { cardReviewBy, orderStatusRef, orderWrites, readOrderBrief, type StatusHistoryRow } from '../orders';
import type { ManualPayments, refundOrder } from '../payments';
import type { StaffOrderRow, StaffQueueFilter, StaffRepo } from './staff.repo';
import { isSupport, writerScope, type Actor } from '../../lib/actor';
import { notify } from '../notifications';
import { notFound } from '../../lib/errors';
import { isoInstant } from '../../lib/iso-instant';
import { orderAuditState, recordAudit } from '../audit';

/** ADR 0081: the orders a "due within" view lists: paid, in progress or on hold (work not delivered yet). */
const IN_WORK_STATUSES: readonly number[] = [ORDER_STATUS.paid, ORDER_STATUS.inProgress, ORDER_STATUS.hold];

/** The queue's `q`: text of three characters or more searched in titles and emails; a number is also an order id. */
const queueSearch = (q: string | undefined): StaffQueueFilter['search'] => {
  const text = q?.trim().toLowerCase() ?? '';
  if (text === '') return null;
  const idText = /^#?(\d{1,10})$/.exec(text)?.[1];
  const id = idText === undefined || Number(idText) > 2_147_483_647 ? null : Number(idText);
  return { text: text.length >= STAFF_SEARCH_MIN_LENGTH ? text : null, id };
};

const requireSupport = (actor: Actor): void => {
  // CONTRACT "Staff side": a writer on a support-only route gets 403.
  if (!isSupport(actor)) throw new DomainError(ERROR_CODE.forbidden, STAFF_MESSAGE.supportOnly);
};

/** ADR 0089: the writer's pay and deadline rules (settings). */
export interface WriterTermsRule {
  feePercent: number;
  deadlineLeadHours: number;
}

const fullName = (first: string | null, last: string | null): string => `${first ?? ''} ${last ?? ''}`.trim();

/**
 * One queue row on the wire, built in one object (ADR 0081: a page is 20 to 100 of them): the order's
 * card as the customer's list shows it (less what only the customer's card uses: hidden, unread, its
 * actions' facts), then staff's fields, in `staffOrderSchema`'s key order. The queue's answer is written
 * as built (`staffQueueJson`), so this order is the JSON's.
 */
const toWire = (row: StaffOrderRow, actor: Actor, terms: WriterTermsRule): StaffOrder => {
  const support = isSupport(actor);
  return {
    id: row.id,
    uid: row.uid,
    title: row.title,
    workType: { id: row.workType.id, name: row.workType.name ?? '' },
    siteCategory: row.siteCategory,
    status: row.statusId,
    orderStatus: orderStatusRef(row.statusId),
    deadline: isoInstant(row.deadline),
    dateCreated: isoInstant(row.createdAt),
    // ADR 0089: a writer sees their pay, never the customer's price, email or last name.
    finalPrice: support ? centsToAmount(row.finalPriceCents) : null,
    pending: row.pending,
    pages: row.pages,
    reviewBy: cardReviewBy(row),
    idCustomer: row.customerId,
    idWriter: row.writerId,
    customerName: support
      ? fullName(row.customerFirstName, row.customerLastName) || `Customer #${row.customerId}`
      : row.customerFirstName || 'The customer',
    customerEmail: support ? row.customerEmail : null,
    writerName: row.writerId === null ? null : fullName(row.writerFirstName, row.writerLastName) || `Writer #${row.writerId}`,
    pay: centsToAmount(writerPayCents(row.finalPriceCents, terms.feePercent)),
    writerDeadline: isoInstant(writerDeadline({ deadline: row.deadline, createdAt: row.createdAt, leadHours: terms.deadlineLeadHours })),
    openRevision: row.openRevision,
  };
};

/** ADR 0071: the order view: the row, what the transition table reads, and the history with who and why. */
type AfterPaymentView = Pick<StaffOrderView, 'delivery' | 'extensionRequest' | 'events' | 'extensionAlert'>;
const toView = (
  row: StaffOrderRow,
  history: StatusHistoryRow[],
  afterPayment: AfterPaymentView,
  extra: Pick<StaffOrderView, 'brief' | 'otherOrders'>,
  actor: Actor,
  terms: WriterTermsRule,
): StaffOrderView => {
  const charge = orderCharge({ statusId: row.statusId, finalPriceCents: row.finalPriceCents, amountDueCents: row.amountDueCents });
  return {
    ...toWire(row, actor, terms),
    ...extra,
    delivered: row.delivered,
    amountDue: centsToAmount(row.amountDueCents),
    chargeDue: charge && isSupport(actor) ? centsToAmount(charge.amountCents) : null,
    statusHistory: history.map((h) => ({
      status: h.status,
      date: h.date.toISOString(),
      by: statusChangedBy(h.actorRole),
      actorId: h.actorId,
      reason: h.reason,
    })),
    ...afterPayment,
  };
};

export interface StaffServiceDeps {
  /** The service opens the transactions (a status change and what goes with it); the writes take them. */
  db: Pick<Db, 'transaction'>;
  repo: StaffRepo;
  clock: Clock;
  log: Logger;
  files: Pick<FilesService, 'deliver' | 'listForStaff' | 'downloadForStaff'>;
  /** ADR 0072: the payments module's one refund use case, in the status change's transaction. */
  refundOrder: typeof refundOrder;
  /** ADR 0071: a payment support records by hand (the payments module settles it). */
  manualPayments: Pick<ManualPayments, 'recordManualPayment'>;
  /** ADR 0084: the delivery module's view of the order. */
  afterPayment: { staffView(q: { orderId: number }): Promise<AfterPaymentView> };
  /** ADR 0089: the writer's pay and deadline rules (settings WRITER_FEE_PERCENT, WRITER_DEADLINE_LEAD_HOURS). */
  writerTerms: WriterTermsRule;
  /** ADR 0089: read-only access for the brief (the orders module's reader). */
  reader: Parameters<typeof readOrderBrief>[0];
}

export const createStaffService = ({
  db,
  repo,
  clock,
  log,
  files,
  refundOrder,
  manualPayments,
  afterPayment,
  writerTerms,
  reader,
}: StaffServiceDeps) => {
  const orderFor = async (actor: Actor, orderId: number): Promise<StaffOrderRow> => {
    const row = await repo.findOrder({ orderId, writerId: writerScope(actor) });
    if (!row) throw notFound();
    return row;
  };
  const viewOf = async (actor: Actor, orderId: number): Promise<StaffOrderView> => viewOfRow(actor, await orderFor(actor, orderId));
  const viewOfRow = async (actor: Actor, row: StaffOrderRow): Promise<StaffOrderView> => {
    const [history, after, brief, otherOrders] = await Promise.all([
      repo.history(row.id),
      afterPayment.staffView({ orderId: row.id }),
      readOrderBrief(reader, row.id),
      isSupport(actor) ? repo.customerOrders({ customerId: row.customerId, exceptOrderId: row.id }) : Promise.resolve([]),
    ]);
    if (!brief) throw notFound();
    return toView(row, history, after, { brief: brief.brief, otherOrders }, actor, writerTerms);
  };

  return {
    me: async ({ userId }: { userId: number }): Promise<StaffMe> => {
      const me = await repo.findStaff(userId);
      if (!me) throw notFound();
      return me;
    },

    /** CONTRACT "Staff side" queue: support sees every order, a writer the orders assigned to them. */
    queue: async ({ actor, query }: { actor: Actor; query: StaffOrderQuery }): Promise<StaffOrderList> => {
      const { rows, total, totalCapped } = await repo.queue({
        writerId: writerScope(actor),
        statusId: query.status ?? null,
        unassigned: query.unassigned === '1',
        dueWithin: query.dueWithin === undefined ? null : { hours: query.dueWithin, now: clock.now(), inWorkStatuses: IN_WORK_STATUSES },
        search: queueSearch(query.q),
        view: query.view === undefined ? null : { view: query.view, now: clock.now() },
        byDeadline: query.sort === 'deadline',
        limit: query.limit,
        offset: (query.page - 1) * query.limit,
      });
      return { orders: rows.map((row) => toWire(row, actor, writerTerms)), total, totalCapped };
    },

    /** ADR 0089: each view's count (support: every order; a writer: theirs). */
    viewCounts: async ({ actor, views = STAFF_VIEWS }: { actor: Actor; views?: readonly StaffView[] }): Promise<StaffViewCounts> => ({
      views: await repo.viewCounts({ views, now: clock.now(), writerId: writerScope(actor) }),
    }),

    /** CONTRACT "Staff side": the writers with their workload and record (support). */
    writers: async ({ actor, q }: { actor: Actor; q: string | undefined }): Promise<StaffWriterList> => {
      requireSupport(actor);
      const text = q?.trim().toLowerCase() ?? '';
      return { writers: await repo.writers({ search: text === '' ? null : text }) };
    },

    /** ADR 0059, 0071: one order by id, under the same writer scope as the queue, with its history. */
    order: async ({ actor, orderId }: { actor: Actor; orderId: number }): Promise<StaffOrderView> => viewOf(actor, orderId),

    /**
     * CONTRACT "Staff side", ADR 0071: support asks for a move; the transition table decides on the locked
     * order (409 naming the moves allowed now). Refunded (7) is the one refund use case (ADR 0072: its
     * transactions, the points, then the move); a paid order's cancel (8) refunds it the same way first.
     * The change lands in the history with who made it and the reason, all in one transaction, so two
     * racing moves make one change and one entry.
     */
    setStatus: async ({
      actor,
      orderId,
      status,
      reason,
    }: {
      actor: Actor;
      orderId: number;
      status: number;
      reason?: string | undefined;
    }): Promise<StaffOrderView> => {
      requireSupport(actor);
      const order = await orderFor(actor, orderId);
      const now = clock.now();
      await db.transaction(async (tx) => {
        const locked = await orderWrites(tx).lockForMove(order.id);
        if (!locked) throw notFound();
        const before = await orderAuditState(tx, order.id);
        // ADR 0090: the audit entry in the change's transaction, once the move (and any refund) is written.
        const audit = async () =>
          recordAudit(tx, {
            actor,
            action: AUDIT_ACTION.orderStatus,
            orderId: order.id,
            before,
            after: { ...(await orderAuditState(tx, order.id)), reason: reason ?? null },
            at: now,
          });
        if (status === ORDER_STATUS.refunded) {
          await refundOrder(tx, {
            orderId: order.id,
            request: { kind: 'full', moveTo: ORDER_STATUS.refunded },
            actor,
            reason: reason ?? '',
            now,
            log,
          });
          await audit();
          return;
        }
        assertOrderMove(locked.statusId, status, MOVE_BY.support, locked.facts);
        // A paid order's cancel gives its money back (nothing is written when none was recorded).
        if (status === ORDER_STATUS.canceled) {
          await refundOrder(tx, { orderId: order.id, request: { kind: 'full', moveTo: null }, actor, reason: reason ?? '', now, log });
        }
        const moved = await orderWrites(tx).move(
          { orderId: order.id, to: status, by: MOVE_BY.support, actor, reason: reason ?? null, now },
          locked,
        );
        if (!moved.moved) throw new DomainError(ERROR_CODE.conflict, moved.message);
        await audit();
      });
      return viewOf(actor, order.id);
    },

    /** CONTRACT "Staff side": support assigns a writer account (422 for any other id); a paid order moves to in progress (2 → 3). */
    assignWriter: async ({ actor, orderId, writerId }: { actor: Actor; orderId: number; writerId: number }): Promise<StaffOrderView> => {
      requireSupport(actor);
      const order = await orderFor(actor, orderId);
      if (!(await repo.isWriter({ userId: writerId }))) {
        throw new DomainError(ERROR_CODE.validation, STAFF_MESSAGE.notAWriter, { idWriter: [STAFF_MESSAGE.notAWriter] });
      }
      const now = clock.now();
      await db.transaction(async (tx) => {
        const before = await orderAuditState(tx, order.id);
        const assigned = await orderWrites(tx).assignWriter({ orderId: order.id, writerId, now, actor });
        await recordAudit(tx, {
          actor,
          action: AUDIT_ACTION.orderWriter,
          orderId: order.id,
          before,
          after: await orderAuditState(tx, order.id),
          at: now,
        });
        if (assigned && order.writerId !== writerId) {
          // ADR 0088: the customer is told (a new writer on a reassignment too), and the writer's console bell.
          await notify(tx, { userId: order.customerId, type: 'writer_assigned', orderId: order.id, now });
          await notify(tx, { userId: writerId, type: 'order_assigned', orderId: order.id, now });
        }
      });
      return viewOf(actor, order.id);
    },

    /**
     * ADR 0071: support records a payment by hand (a bank transfer) with its reference; the payments module
     * settles it like a provider's (1 → 2, or 10 → 2 for a forced edit's difference).
     */
    recordPayment: async ({
      actor,
      orderId,
      body,
    }: {
      actor: Actor;
      orderId: number;
      body: ManualPaymentBody;
    }): Promise<StaffOrderView> => {
      requireSupport(actor);
      const order = await orderFor(actor, orderId);
      await manualPayments.recordManualPayment({
        orderId: order.id,
        reference: body.reference,
        amountCents: body.amount === undefined ? undefined : amountToCents(body.amount),
        actor,
      });
      return viewOf(actor, order.id);
    },

    /** ADR 0071: the order's files for staff (support: any order; a writer: an assigned one), whatever its status. */
    files: async ({ actor, orderId }: { actor: Actor; orderId: number }): Promise<StaffOrderFileList> => {
      const order = await orderFor(actor, orderId);
      return { files: await files.listForStaff({ orderId: order.id }) };
    },

    /** ADR 0071: support still downloads the writer's files of a refunded order (the customer no longer can). */
    download: async ({ actor, orderId, fileId }: { actor: Actor; orderId: number; fileId: number }) => {
      const order = await orderFor(actor, orderId);
      return files.downloadForStaff({ orderId: order.id, fileId });
    },

    /** Checks the order before the body is read: a writer not assigned to it gets 404. */
    orderForDelivery: async ({ actor, orderId }: { actor: Actor; orderId: number }): Promise<{ orderId: number; customerId: number }> => {
      const order = await orderFor(actor, orderId);
      return { orderId: order.id, customerId: order.customerId };
    },

    /** CONTRACT "Staff side" delivery: the file becomes a writer file the customer lists and downloads. */
    deliver: async ({
      actor,
      order,
      file,
    }: {
      actor: Actor;
      order: { orderId: number; customerId: number };
      file: Parameters<FilesService['deliver']>[0]['file'];
    }): Promise<OrderFile> =>
      files.deliver({
        customerId: order.customerId,
        orderId: order.orderId,
        uploadedBy: actor.userId,
        file,
        // ADR 0090: the delivered file is audited in the transaction that records it.
        onRecorded: (tx, stored) =>
          recordAudit(tx, {
            actor,
            action: AUDIT_ACTION.orderFile,
            orderId: order.orderId,
            before: null,
            after: { file: stored },
            at: clock.now(),
          }),
      }),
  };
};
export type StaffService = ReturnType<typeof createStaffService>;
