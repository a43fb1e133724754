import {
  AUDIT_ACTION,
  acceptProblem,
  AFTER_PAYMENT_MESSAGE as M,
  CHANGES_REQUEST_MAX_LENGTH,
  changesProblem,
  customerSeesWriterFiles,
  DELIVERY_MESSAGE_MAX_LENGTH,
  deliveryProblem,
  DomainError,
  ERROR_CODE,
  extendedReviewBy,
  extensionAnswerBy,
  extensionAnswerProblem,
  EXTENSION_REASON_MAX_LENGTH,
  EXTENSION_STATUSES,
  isValidRating,
  messageBodyLength,
  MOVE_BY,
  ORDER_STATUS,
  proposedDeadlineProblem,
  REVIEW_COMMENT_MAX_LENGTH,
  REVIEW_MESSAGE,
  reviewByFor,
  reviewClockRanOut,
  reviewExtensionProblem,
  ROLE,
  STAFF_MESSAGE,
  statusChangedBy,
  stripHtml,
  type AcceptDeliveryBody,
  type AfterPaymentState,
  type ExtensionProposalBody,
  type ExtensionRequest,
  type OrderDelivery,
  type OrderEvent,
  type OrderEventType,
} from '@app/domain';
import type { Db, Queryable } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { isSupport, writerScope, type Actor } from '../../lib/actor';
import { notFound } from '../../lib/errors';
import { recordAudit } from '../audit';
import type { Logger } from '../../lib/logger';
import { createMailRepo, type MailMessage } from '../mail';
import { notify, notifyRole } from '../notifications';
import { orderWrites } from '../orders';
import type { ReviewsService } from '../reviews';
import { createDeliveryRepo, type AfterPaymentOrder, type DeliveryRow, type ExtensionRow } from './delivery.repo';

const SUPPORT_ONLY = STAFF_MESSAGE.supportOnly;
const conflict = (message: string) => new DomainError(ERROR_CODE.conflict, message);
const invalid = (field: string, message: string) => new DomainError(ERROR_CODE.validation, message, { [field]: [message] });

/** Who calls: a customer or a staff member, as the auth guard left them. */
export type Caller = Actor;

/** Sends the customer's text into the order's writer chat through the chat module's one send path. */
export type WriterChatSend = (m: { customerId: number; orderId: number; body: string; clientId: string }) => Promise<void>;

export interface AfterPaymentDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  /** Links in mails. */
  origin: string;
  /** How mails leave (ADR 0074): each is a row of the mail queue written in the transaction of what it tells. */
  mailTransport: 'smtp' | 'outbox';
  reviewDays: number;
  reviews: Pick<ReviewsService, 'add'>;
  writerChat: WriterChatSend;
}

/** What the customer's order page and staff's order view read (ADR 0084). */
const toDeliveryWire = (d: DeliveryRow, files: OrderDelivery['files']): OrderDelivery => ({
  id: d.id,
  deliveredAt: d.deliveredAt.toISOString(),
  reviewBy: d.state === 'awaiting_review' && d.reviewBy ? d.reviewBy.toISOString() : null,
  message: d.message,
  files,
  state: d.state,
  reviewExtended: d.reviewExtended,
  number: d.number,
});
const toExtensionWire = (e: ExtensionRow): ExtensionRequest => ({
  id: e.id,
  deadline: e.deadline.toISOString(),
  reason: e.reason,
  answerBy: e.answerBy.toISOString(),
  currentDeadline: e.previousDeadline.toISOString(),
  proposedBy: e.proposedByRole === ROLE.writer ? 'writer' : 'support',
});

const clean = (raw: string): string => stripHtml(raw).trim();

export const createAfterPayment = ({ db, clock, log, origin, mailTransport, reviewDays, reviews, writerChat }: AfterPaymentDeps) => {
  const repo = createDeliveryRepo(db);
  const orderLink = (orderId: number) => `${origin}/orderinfo/${orderId}`;
  const mail = async (tx: Queryable, m: MailMessage, now: Date): Promise<void> => {
    await createMailRepo(tx).insert({ to: m.to, subject: m.subject, text: m.text, html: m.html ?? '', transport: mailTransport, now });
    log.info({ to: m.to, subject: m.subject }, mailTransport === 'smtp' ? 'mail queued' : 'mail to outbox');
  };

  const state = async (order: AfterPaymentOrder, q: Queryable = db): Promise<AfterPaymentState> => {
    const r = createDeliveryRepo(q);
    const [latest, open, events] = await Promise.all([r.latestDelivery(order.id), r.openExtension(order.id), r.events(order.id)]);
    const files = latest && customerSeesWriterFiles(order.statusId) ? await r.deliveryFiles(latest.id) : [];
    return {
      delivery: latest ? toDeliveryWire(latest, files) : null,
      extensionRequest: open ? toExtensionWire(open) : null,
      events: events.map((e): OrderEvent => ({
        type: e.type,
        date: e.date.toISOString(),
        by: statusChangedBy(e.actorRole),
        ...(e.deadline ? { deadline: e.deadline.toISOString() } : {}),
        ...(e.note ? { note: e.note } : {}),
      })),
      status: order.statusId,
      deadline: order.deadline.toISOString(),
    };
  };

  const customerOrder = async (customerId: number, rawOrderId: number, q: Queryable = db): Promise<AfterPaymentOrder> => {
    const order = await createDeliveryRepo(q).orderOfCustomer({ orderId: rawOrderId, customerId });
    if (!order) throw notFound();
    return order;
  };
  const staffOrder = async (caller: Caller, rawOrderId: number, q: Queryable = db): Promise<AfterPaymentOrder> => {
    const order = await createDeliveryRepo(q).orderOfStaff({ orderId: rawOrderId, writerId: writerScope(caller) });
    if (!order) throw notFound();
    return order;
  };

  /** Locks the order's row (every answer and the job take it first, so they never cross) and reads it again. */
  const lockOrder = async (tx: Queryable, orderId: number) => {
    const locked = await orderWrites(tx).lockForMove(orderId);
    const order = await createDeliveryRepo(tx).orderOfStaff({ orderId, writerId: null });
    if (!locked || !order) throw notFound();
    return { locked, order };
  };

  const reviewOf = (body: AcceptDeliveryBody): { rating: number; comment: string } | null => {
    if (body.rating === undefined) {
      if (body.comment !== undefined && clean(body.comment) !== '') throw invalid('rating', REVIEW_MESSAGE.invalidRating);
      return null;
    }
    if (!isValidRating(body.rating)) throw invalid('rating', REVIEW_MESSAGE.invalidRating);
    const comment = clean(body.comment ?? '');
    if (comment.length > REVIEW_COMMENT_MAX_LENGTH) throw invalid('comment', REVIEW_MESSAGE.commentTooLong);
    return { rating: body.rating, comment };
  };

  return {
    /** The order page's part (the orders module's detail): the latest delivery, the open proposal, the timeline. */
    orderView: async ({
      orderId,
      customerId,
    }: {
      orderId: number;
      customerId: number;
    }): Promise<Omit<AfterPaymentState, 'status' | 'deadline'>> => {
      const order = await repo.orderOfCustomer({ orderId, customerId });
      if (!order) return { delivery: null, extensionRequest: null, events: [] };
      const { status: _s, deadline: _d, ...rest } = await state(order);
      return rest;
    },

    /** Staff's order view: the same, every file of the delivery, and a proposal nobody answered in time (support's alert). */
    staffView: async ({ orderId }: { orderId: number }) => {
      const order = await repo.orderOfStaff({ orderId, writerId: null });
      if (!order) return { delivery: null, extensionRequest: null, events: [], extensionAlert: null };
      const { status: _s, deadline: _d, ...rest } = await state({ ...order, statusId: ORDER_STATUS.inProgress });
      const alert = await repo.alertOf(orderId);
      return { ...rest, extensionAlert: alert ? toExtensionWire(alert) : null };
    },

    /**
     * CONTRACT "After payment": the assigned writer (or support) submits the writer files uploaded since the
     * last delivery, with a message; the review clock starts (REVIEW_DAYS) and the customer is told.
     */
    deliver: async ({ caller, orderId: rawOrderId, message: rawMessage }: { caller: Caller; orderId: number; message: string }) => {
      const { id: orderId } = await staffOrder(caller, rawOrderId);
      const message = clean(rawMessage);
      if (message.length > DELIVERY_MESSAGE_MAX_LENGTH) throw invalid('message', M.messageTooLong);
      const now = clock.now();
      return db.transaction(async (tx) => {
        const { locked, order } = await lockOrder(tx, orderId);
        const r = createDeliveryRepo(tx);
        const latest = await r.latestDelivery(orderId, { lock: true });
        const fileIds = await r.undeliveredFileIds(orderId);
        const problem = deliveryProblem({ statusId: locked.statusId, latest, newFiles: fileIds.length });
        if (problem) throw conflict(problem);
        const reviewBy = reviewByFor(now, reviewDays);
        await r.insertDelivery({ orderId, actorId: caller.userId, actorRole: caller.role, message, now, reviewBy, fileIds });
        await r.insertEvent({ orderId, type: 'delivered', actorId: caller.userId, actorRole: caller.role, note: message || null, now });
        // ADR 0090: the audit entry in the delivery's transaction.
        await recordAudit(tx, {
          actor: caller,
          action: AUDIT_ACTION.orderDelivery,
          orderId,
          before: { latestDelivery: latest ? { state: latest.state } : null },
          after: { files: fileIds, reviewBy: reviewBy.toISOString(), message },
          at: now,
        });
        // ADR 0088: the customer is told (bell, socket, one mail per burst, push).
        await notify(tx, {
          userId: order.customerId,
          type: 'delivered',
          orderId,
          facts: { reviewBy, ...(message ? { note: message } : {}) },
          now,
        });
        log.info({ orderId, files: fileIds.length }, 'delivery submitted');
        return state(order, tx);
      });
    },

    /** CONTRACT "After payment": the assigned writer (or support) proposes a later deadline with a reason. */
    proposeExtension: async ({ caller, orderId: rawOrderId, body }: { caller: Caller; orderId: number; body: ExtensionProposalBody }) => {
      const { id: orderId } = await staffOrder(caller, rawOrderId);
      const reason = clean(body.reason);
      if (reason === '') throw invalid('reason', M.reasonRequired);
      if (reason.length > EXTENSION_REASON_MAX_LENGTH) throw invalid('reason', M.reasonTooLong);
      const proposed = new Date(body.deadline);
      if (Number.isNaN(proposed.getTime())) throw invalid('deadline', M.deadlineInvalid);
      const now = clock.now();
      return db.transaction(async (tx) => {
        const { locked, order } = await lockOrder(tx, orderId);
        const r = createDeliveryRepo(tx);
        if (!EXTENSION_STATUSES.includes(locked.statusId)) throw conflict(M.extensionNotAllowed);
        if ((await r.latestDelivery(orderId))?.state === 'awaiting_review') throw conflict(M.awaitingReview);
        if (await r.openExtension(orderId)) throw conflict(M.extensionOpen);
        const problem = proposedDeadlineProblem({ current: order.deadline, proposed });
        if (problem) throw invalid('deadline', problem);
        const answerBy = extensionAnswerBy(now, order.deadline);
        await r.insertExtension({
          orderId,
          actorId: caller.userId,
          actorRole: caller.role,
          previousDeadline: order.deadline,
          deadline: proposed,
          reason,
          answerBy,
          now,
        });
        await recordAudit(tx, {
          actor: caller,
          action: AUDIT_ACTION.orderExtension,
          orderId,
          before: { deadline: order.deadline.toISOString() },
          after: { proposedDeadline: proposed.toISOString(), answerBy: answerBy.toISOString(), reason },
          at: now,
        });
        await r.insertEvent({
          orderId,
          type: 'extension_proposed',
          actorId: caller.userId,
          actorRole: caller.role,
          deadline: proposed,
          note: reason,
          now,
        });
        await notify(tx, {
          userId: order.customerId,
          type: 'extension_requested',
          orderId,
          facts: { deadline: proposed, answerBy, note: reason },
          now,
        });
        return state(order, tx);
      });
    },

    /**
     * CONTRACT "After payment": the customer accepts the delivery: 3 → 5 through the transition table (the
     * revision window starts at completed_at), once; then the optional review through the reviews module.
     */
    accept: async ({ caller, orderId: rawOrderId, body }: { caller: Caller; orderId: number; body: AcceptDeliveryBody }) => {
      const review = reviewOf(body);
      const { id: orderId } = await customerOrder(caller.userId, rawOrderId);
      const now = clock.now();
      const after = await db.transaction(async (tx) => {
        const { locked, order } = await lockOrder(tx, orderId);
        const r = createDeliveryRepo(tx);
        const delivery = await r.latestDelivery(orderId, { lock: true });
        const problem = acceptProblem(delivery, locked.statusId);
        if (problem || !delivery) throw conflict(problem ?? M.noDelivery);
        const moved = await orderWrites(tx).move(
          { orderId, to: ORDER_STATUS.completed, by: MOVE_BY.acceptance, actor: caller, now },
          locked,
        );
        if (!moved.moved) throw conflict(moved.message);
        await r.setDeliveryState({ id: delivery.id, state: 'accepted', now });
        await r.insertEvent({ orderId, type: 'accepted', actorId: caller.userId, actorRole: caller.role, now });
        if (order.writerEmail)
          await mail(
            tx,
            {
              to: order.writerEmail,
              subject: `Order #${orderId} was accepted`,
              text: `The customer accepted your delivery of "${order.title}" (order #${orderId}).`,
            },
            now,
          );
        return { ...order, statusId: ORDER_STATUS.completed };
      });
      if (review) {
        try {
          await reviews.add({ customerId: caller.userId, orderId, body: review });
        } catch (error) {
          // The acceptance stands; a review the reviews module refused (one was left meanwhile) is not retried.
          log.warn({ err: error, orderId }, 'the review sent with an acceptance was not stored');
        }
      }
      return state(after);
    },

    /**
     * CONTRACT "After payment": the customer asks for changes: the clock stops, the message goes into the
     * writer chat (the chat module's one send path) and the writer is told by mail.
     */
    requestChanges: async ({ caller, orderId: rawOrderId, message: rawMessage }: { caller: Caller; orderId: number; message: string }) => {
      const message = clean(rawMessage);
      if (message === '') throw invalid('message', M.changesRequired);
      if (messageBodyLength(message) > CHANGES_REQUEST_MAX_LENGTH) throw invalid('message', M.changesTooLong);
      const { id: orderId } = await customerOrder(caller.userId, rawOrderId);
      const now = clock.now();
      const { order, deliveryId } = await db.transaction(async (tx) => {
        const { locked, order } = await lockOrder(tx, orderId);
        const r = createDeliveryRepo(tx);
        const delivery = await r.latestDelivery(orderId, { lock: true });
        const problem = changesProblem(delivery, locked.statusId);
        if (problem || !delivery) throw conflict(problem ?? M.noDelivery);
        await r.setDeliveryState({ id: delivery.id, state: 'changes_requested', now });
        await r.insertEvent({ orderId, type: 'changes_requested', actorId: caller.userId, actorRole: caller.role, note: message, now });
        if (order.writerId !== null)
          await notify(tx, { userId: order.writerId, type: 'changes_requested', orderId, facts: { note: message }, now });
        if (order.writerEmail)
          await mail(
            tx,
            {
              to: order.writerEmail,
              subject: `Order #${orderId}: the customer asks for changes`,
              text: [
                `The customer asks for changes to "${order.title}" (order #${orderId}):`,
                '',
                message,
                '',
                `${origin}/staff/orders/${orderId}`,
              ].join('\n'),
            },
            now,
          );
        return { order, deliveryId: delivery.id };
      });
      try {
        await writerChat({ customerId: caller.userId, orderId, body: message, clientId: `changes-${deliveryId}` });
      } catch (error) {
        // The request stands (the timeline and the writer's mail carry it); the chat copy is what failed.
        log.error({ err: error, orderId }, 'the request for changes could not be put in the writer chat');
      }
      return state(order);
    },

    /** ADR 0084: the customer pushes the review clock once, by REVIEW_EXTENSION_DAYS. */
    extendReview: async ({ caller, orderId: rawOrderId }: { caller: Caller; orderId: number }) => {
      const { id: orderId } = await customerOrder(caller.userId, rawOrderId);
      const now = clock.now();
      return db.transaction(async (tx) => {
        const { locked, order } = await lockOrder(tx, orderId);
        const r = createDeliveryRepo(tx);
        const delivery = await r.latestDelivery(orderId, { lock: true });
        const problem = reviewExtensionProblem(delivery, locked.statusId, now);
        if (problem || !delivery?.reviewBy) throw conflict(problem ?? M.noDelivery);
        const reviewBy = extendedReviewBy(delivery.reviewBy);
        await r.extendReview({ id: delivery.id, reviewBy });
        await r.insertEvent({ orderId, type: 'review_extended', actorId: caller.userId, actorRole: caller.role, deadline: reviewBy, now });
        return state(order, tx);
      });
    },

    /**
     * CONTRACT "After payment": the customer answers a proposed deadline before its answerBy. Accepting moves
     * the order's deadline (the orders module writes it); after answerBy it is expired (the original stands).
     */
    answerExtension: async ({
      caller,
      orderId: rawOrderId,
      extensionId: rawExtensionId,
      accept,
    }: {
      caller: Caller;
      orderId: number;
      extensionId: number;
      accept: boolean;
    }) => {
      const { id: orderId } = await customerOrder(caller.userId, rawOrderId);
      const extensionId = rawExtensionId;
      const now = clock.now();
      const outcome = await db.transaction(async (tx) => {
        const { locked, order } = await lockOrder(tx, orderId);
        const r = createDeliveryRepo(tx);
        const extension = await r.extension({ id: extensionId, orderId, lock: true });
        if (!extension) throw notFound();
        const problem = extensionAnswerProblem({ state: extension.state, answerBy: extension.answerBy, now });
        if (problem) {
          // Past its answer time and still open: it is expired now (the job would do the same), then refused.
          if (extension.state === 'open') await expire(tx, extension, order, now);
          return { problem };
        }
        if (accept && !EXTENSION_STATUSES.includes(locked.statusId)) return { problem: M.extensionNotAllowed };
        if (accept) await orderWrites(tx).setDeadline({ orderId, deadline: extension.deadline, now });
        await r.settleExtension({ id: extension.id, state: accept ? 'accepted' : 'declined', now });
        await r.insertEvent({
          orderId,
          type: accept ? 'extension_accepted' : 'extension_declined',
          actorId: caller.userId,
          actorRole: caller.role,
          deadline: extension.deadline,
          now,
        });
        if (order.writerEmail)
          await mail(
            tx,
            {
              to: order.writerEmail,
              subject: `Order #${orderId}: new deadline ${accept ? 'accepted' : 'declined'}`,
              text: accept
                ? `The customer accepted the new deadline of order #${orderId}: ${extension.deadline.toUTCString()}.`
                : `The customer declined the new deadline of order #${orderId}: the original deadline (${extension.previousDeadline.toUTCString()}) stands.`,
            },
            now,
          );
        return { problem: null, order: accept ? { ...order, deadline: extension.deadline } : order };
      });
      if (outcome.problem !== null) throw conflict(outcome.problem);
      return state(outcome.order);
    },

    /** Support's list of proposals nobody answered in time (the alert), newest first. */
    unansweredProposals: async ({ caller }: { caller: Caller }) => {
      if (!isSupport(caller)) throw new DomainError(ERROR_CODE.forbidden, SUPPORT_ONLY);
      const rows = await repo.unansweredAlerts();
      return {
        proposals: rows.map((e) => ({
          ...toExtensionWire(e),
          orderId: e.orderId,
          title: e.title,
          expiredAt: (e.supportAlertAt ?? e.answerBy).toISOString(),
        })),
      };
    },

    /** Support has seen an alert: it leaves the list. */
    dismissAlert: async ({ caller, extensionId }: { caller: Caller; extensionId: number }): Promise<void> => {
      if (!isSupport(caller)) throw new DomainError(ERROR_CODE.forbidden, SUPPORT_ONLY);
      if (!(await repo.dismissAlert({ id: extensionId, now: clock.now() }))) throw notFound();
    },

    /**
     * ADR 0084, the job: completes the orders whose review clock ran out (the customer is told) and expires
     * the proposals nobody answered (support is alerted). `asOf` is the job's "now" (the clock's unless a
     * test-only route gives one). Each item in its own transaction, its order row locked with SKIP LOCKED
     * first, so two instances never handle one item and a customer's answer and the clock never cross.
     */
    runOnce: async (asOf?: Date): Promise<{ completed: number; expired: number }> => {
      let completed = 0;
      let expired = 0;
      const seen = new Set<number>();
      for (let i = 0; i < JOB_BATCH; i += 1) {
        const now = asOf ?? clock.now();
        const done = await db.transaction(async (tx) => {
          const r = createDeliveryRepo(tx);
          const due = await r.lockDueDelivery({ now, skip: [...seen] });
          if (!due) return null;
          seen.add(due.deliveryId);
          const { locked, order } = await lockOrder(tx, due.orderId);
          const delivery = await r.latestDelivery(due.orderId, { lock: true });
          if (delivery?.id !== due.deliveryId || !reviewClockRanOut(delivery, now)) return false;
          const moved = await orderWrites(tx).move(
            { orderId: order.id, to: ORDER_STATUS.completed, by: MOVE_BY.reviewClock, actor: null, now },
            locked,
          );
          if (!moved.moved) return false;
          await r.setDeliveryState({ id: delivery.id, state: 'auto_completed', now });
          await r.insertEvent({ orderId: order.id, type: 'auto_completed', actorId: null, actorRole: null, now });
          await notify(tx, { userId: order.customerId, type: 'completed', orderId: order.id, now });
          return true;
        });
        if (done === null) break;
        if (done) completed += 1;
      }
      const seenExtensions = new Set<number>();
      for (let i = 0; i < JOB_BATCH; i += 1) {
        const now = asOf ?? clock.now();
        const done = await db.transaction(async (tx) => {
          const r = createDeliveryRepo(tx);
          const due = await r.lockDueExtension({ now, skip: [...seenExtensions] });
          if (!due) return null;
          seenExtensions.add(due.id);
          const { order } = await lockOrder(tx, due.orderId);
          const extension = await r.extension({ id: due.id, orderId: due.orderId, lock: true });
          if (extension?.state !== 'open' || extension.answerBy.getTime() >= now.getTime()) return false;
          await expire(tx, extension, order, now);
          return true;
        });
        if (done === null) break;
        if (done) expired += 1;
      }
      await repo.settleCompletedByHand({ now: asOf ?? clock.now() });
      if (completed > 0 || expired > 0) log.info({ completed, expired }, 'after-payment job: review clocks ended, proposals expired');
      return { completed, expired };
    },
  };

  /** Silence until answerBy is a decline: the original deadline stands, the customer is told, support is alerted. */
  async function expire(tx: Queryable, extension: ExtensionRow, order: AfterPaymentOrder, now: Date): Promise<void> {
    const r = createDeliveryRepo(tx);
    await r.settleExtension({ id: extension.id, state: 'expired', now });
    await r.insertEvent({
      orderId: order.id,
      type: 'extension_expired',
      actorId: null,
      actorRole: null,
      deadline: extension.deadline,
      now,
    });
    await mail(
      tx,
      {
        to: order.customerEmail,
        subject: `Order #${order.id}: the deadline stays as it was`,
        text: `You did not answer your writer's request for more time on order #${order.id}, so the original deadline (${extension.previousDeadline.toUTCString()}) stands. Support will be in touch if needed.\n\n${orderLink(order.id)}`,
      },
      now,
    );
    await notifyRole(tx, { role: ROLE.support, type: 'extension_expired', orderId: order.id, now });
    log.warn({ orderId: order.id, extensionId: extension.id }, 'a proposed deadline was not answered in time: support is alerted');
  }
};
export type AfterPayment = ReturnType<typeof createAfterPayment>;

/** Items one run handles at most of each kind (the next run goes on). */
const JOB_BATCH = 50;

/** ADR 0087: an entry of the order's timeline another module's use case writes, in its transaction (the delivery module owns the table). */
export const recordTimelineEvent = (
  tx: Queryable,
  e: { orderId: number; type: OrderEventType; actor: Actor | null; deadline?: Date | null; note?: string | null; now: Date },
): Promise<void> =>
  createDeliveryRepo(tx).insertEvent({
    orderId: e.orderId,
    type: e.type,
    actorId: e.actor?.userId ?? null,
    actorRole: e.actor?.role ?? null,
    deadline: e.deadline ?? null,
    note: e.note ?? null,
    now: e.now,
  });

/**
 * ADR 0087: support moves the deadline as a dispute's outcome (the customer asked for it by disputing, so
 * no proposal waits for consent): the same checks as a proposal (later, at most EXTENSION_MAX_DAYS), the
 * orders module writes it, any open proposal is settled as declined, and it lands on the timeline.
 */
export const extendDeadlineBySupport = async (
  tx: Queryable,
  { orderId, deadline, actor, note, now }: { orderId: number; deadline: Date; actor: Actor; note: string; now: Date },
): Promise<void> => {
  const r = createDeliveryRepo(tx);
  const order = await r.orderOfStaff({ orderId, writerId: null });
  if (!order) throw notFound();
  if (!EXTENSION_STATUSES.includes(order.statusId)) throw conflict(M.extensionNotAllowed);
  const problem = proposedDeadlineProblem({ current: order.deadline, proposed: deadline });
  if (problem) throw invalid('deadline', problem);
  const open = await r.openExtension(orderId);
  if (open) await r.settleExtension({ id: open.id, state: 'declined', now });
  await orderWrites(tx).setDeadline({ orderId, deadline, now });
  await recordTimelineEvent(tx, { orderId, type: 'deadline_extended', actor, deadline, note, now });
};
