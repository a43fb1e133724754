import {
  AUDIT_ACTION,
  amountToCents,
  CANCEL_MESSAGE,
  CANCEL_REASON_MAX_LENGTH,
  cancelQuote,
  centsToAmount,
  disputeAnswerBy,
  DISPUTE_DESCRIPTION_MAX_LENGTH,
  DISPUTE_MESSAGE,
  DISPUTE_REASON_VALUES,
  DISPUTE_RESOLUTION_MESSAGE_MAX_LENGTH,
  DISPUTE_WORK_STATUSES,
  disputeOpenProblem,
  disputeOutcomeLabel,
  disputeReasonLabel,
  DomainError,
  ERROR_CODE,
  formatUsd,
  MONEY_PROVIDER_NAME,
  MOVE_BY,
  ORDER_STATUS,
  refundableCents,
  STAFF_MESSAGE,
  stripHtml,
  assertOrderMove,
  type CancellationQuote,
  type CancelPolicy,
  type CancelResult,
  type Dispute,
  type DisputeReason,
  type DisputeResolutionBody,
  type OrderFile,
  type StaffDisputeList,
  type StaffDisputeQuery,
} from '@app/domain';
import type { Db, Queryable } from '../../db/client';
import type { Clock } from '../../lib/clock';
import type { Logger } from '../../lib/logger';
import { isSupport, type Actor } from '../../lib/actor';
import { notFound } from '../../lib/errors';
import { extendDeadlineBySupport, recordTimelineEvent } from '../delivery';
import { notify } from '../notifications';
import { recordAudit } from '../audit';
import { orderWrites, type LockedOrder } from '../orders';
import { refundOrder } from '../payments';
import { readOrderMoney, type OrderMoneyRecord } from '../transactions';
import { createDisputesRepo, type DisputeRow } from './disputes.repo';

const conflict = (message: string) => new DomainError(ERROR_CODE.conflict, message);
const invalid = (field: string, message: string) => new DomainError(ERROR_CODE.validation, message, { [field]: [message] });
const clean = (raw: string): string => stripHtml(raw).trim();

/** The customer's fields of a dispute, raw (checked by `checkDisputeFields` before any file is read). */
export interface DisputeFields {
  reason: string;
  description: string;
}

/** ADR 0087: the reason from the list, a description required and at most its length (after stripping HTML). */
export const checkDisputeFields = (f: Partial<DisputeFields>): { reason: DisputeReason; description: string } => {
  const reason = DISPUTE_REASON_VALUES.find((r) => r === f.reason);
  if (!reason) throw invalid('reason', DISPUTE_MESSAGE.reasonInvalid);
  if (f.description !== undefined && f.description.length > DISPUTE_DESCRIPTION_MAX_LENGTH * 4)
    throw invalid('description', DISPUTE_MESSAGE.descriptionTooLong);
  const description = clean(f.description ?? '');
  if (description === '') throw invalid('description', DISPUTE_MESSAGE.descriptionRequired);
  if (description.length > DISPUTE_DESCRIPTION_MAX_LENGTH) throw invalid('description', DISPUTE_MESSAGE.descriptionTooLong);
  return { reason, description };
};

/** "PayPal", "Fondy (sandbox: no real money moves)": where a refund of the order goes. */
const destinationOf = (money: OrderMoneyRecord): string | null => {
  const last = money.payments.at(-1);
  if (!last) return null;
  const name = MONEY_PROVIDER_NAME[last.provider];
  return last.sandbox ? `${name} (sandbox: no real money moves)` : name;
};

export interface DisputesDeps {
  db: Db;
  clock: Clock;
  log: Logger;
  policy: CancelPolicy;
}

export const createDisputes = ({ db, clock, log, policy }: DisputesDeps) => {
  const repo = createDisputesRepo(db);

  const ownOrder = async (customerId: number, orderId: number): Promise<number> => {
    const order = await repo.orderOfCustomer({ orderId, customerId });
    if (!order) throw notFound();
    return order.id;
  };

  const quoteOf = (locked: LockedOrder, money: OrderMoneyRecord) =>
    cancelQuote(
      {
        statusId: locked.statusId,
        hasWriter: locked.facts.hasWriter,
        delivered: locked.facts.delivered,
        paidCents: money.paidCents,
        refundedCents: money.refundedCents,
      },
      policy,
    );

  const toWire = (d: DisputeRow, files: OrderFile[]): Dispute => ({
    id: d.id,
    orderId: d.orderId,
    status: d.status,
    reason: d.reason,
    description: d.description,
    answerBy: d.answerBy.toISOString(),
    createdAt: d.createdAt.toISOString(),
    requestedRefund: d.requestedRefundCents === null ? null : centsToAmount(d.requestedRefundCents),
    files,
    resolution:
      d.status === 'resolved' && d.outcome && d.resolvedAt
        ? {
            outcome: d.outcome,
            message: d.resolutionMessage ?? '',
            amount: d.refundCents === null ? null : centsToAmount(d.refundCents),
            deadline: d.newDeadline?.toISOString() ?? null,
            resolvedAt: d.resolvedAt.toISOString(),
          }
        : null,
  });
  const withFiles = async (rows: DisputeRow[], q: Queryable = db): Promise<Dispute[]> => {
    const files = await createDisputesRepo(q).filesOf(rows.map((r) => r.id));
    return rows.map((r) => toWire(r, files.get(r.id) ?? []));
  };

  /**
   * Opens a dispute in the caller's transaction, on the locked order: refused on an unpaid or closed order
   * (409), one open at a time (409); it lands on the timeline and support is told.
   */
  const openIn = async (
    tx: Queryable,
    {
      actor,
      locked,
      money,
      reason,
      description,
      requestedRefundCents,
      fileIds,
      now,
    }: {
      actor: Actor;
      locked: LockedOrder;
      money: OrderMoneyRecord;
      reason: DisputeReason;
      description: string;
      requestedRefundCents: number | null;
      fileIds: number[];
      now: Date;
    },
  ): Promise<DisputeRow> => {
    const problem = disputeOpenProblem({ statusId: locked.statusId, paidCents: money.paidCents });
    if (problem) throw conflict(problem);
    const r = createDisputesRepo(tx);
    const answerBy = disputeAnswerBy(now);
    const dispute = await r.insert({
      orderId: locked.id,
      customerId: locked.customerId,
      reason,
      description,
      requestedRefundCents,
      answerBy,
      now,
      fileIds,
    });
    if (!dispute) throw conflict(DISPUTE_MESSAGE.alreadyOpen);
    await recordTimelineEvent(tx, { orderId: locked.id, type: 'dispute_opened', actor, note: disputeReasonLabel(reason), now });
    // ADR 0088: the customer is told through the one notification path (bell, one folded mail, push).
    await notify(tx, {
      userId: dispute.customerId,
      type: 'dispute_updated',
      orderId: locked.id,
      facts: {
        answerBy,
        note: [
          `We received your dispute (${disputeReasonLabel(reason)}).`,
          requestedRefundCents !== null
            ? `You asked to cancel; the refund the policy gives now is ${formatUsd(requestedRefundCents)}.`
            : '',
          `Support answers by ${answerBy.toUTCString()}.`,
        ]
          .filter(Boolean)
          .join(' '),
      },
      now,
    });
    log.info({ orderId: locked.id, disputeId: dispute.id, reason }, 'dispute opened');
    return dispute;
  };

  return {
    /** CONTRACT "After payment": `GET …/cancellation`, what a cancel would return now under the policy. */
    quote: async ({ customerId, orderId }: { customerId: number; orderId: number }): Promise<CancellationQuote> => {
      const id = await ownOrder(customerId, orderId);
      return db.transaction(async (tx) => {
        const locked = await orderWrites(tx).lockForMove(id);
        if (!locked) throw notFound();
        const money = await readOrderMoney(tx, id);
        const q = quoteOf(locked, money);
        return {
          allowed: q.allowed,
          refund: centsToAmount(q.refundCents),
          ...(q.reason ? { reason: q.reason } : {}),
          stage: q.stage,
          action: q.action,
          destination: q.refundCents > 0 ? destinationOf(money) : null,
          inProgressRefundPercent: policy.inProgressRefundPercent,
        };
      });
    },

    /**
     * CONTRACT "After payment": `POST …/cancellation { reason }`. Before work: under the order's row lock,
     * the one refund use case gives back what is left (ADR 0072: one refund row per payment, each with its
     * credit note, ADR 0085), then the table's `cancellation` move to 8, on the timeline, all in one
     * transaction (a second cancel racing waits for the lock and finds 8: 409). Once a writer works on it:
     * a dispute asking for the policy's share, which support decides.
     */
    cancel: async ({ actor, orderId, reason: rawReason }: { actor: Actor; orderId: number; reason: string }): Promise<CancelResult> => {
      const reasonText = clean(rawReason);
      if (reasonText.length > CANCEL_REASON_MAX_LENGTH) throw invalid('reason', CANCEL_MESSAGE.reasonTooLong);
      const id = await ownOrder(actor.userId, orderId);
      const now = clock.now();
      return db.transaction(async (tx) => {
        const writes = orderWrites(tx);
        const locked = await writes.lockForMove(id);
        if (!locked) throw notFound();
        const money = await readOrderMoney(tx, id);
        const q = quoteOf(locked, money);
        if (!q.allowed) throw conflict(q.reason ?? CANCEL_MESSAGE.alreadyCanceled);
        if (q.action === 'dispute') {
          const dispute = await openIn(tx, {
            actor,
            locked,
            money,
            reason: 'cancel_request',
            description: reasonText || 'I want to cancel the order.',
            requestedRefundCents: q.refundCents,
            fileIds: [],
            now,
          });
          const [wire] = await withFiles([dispute], tx);
          return { canceled: false, refund: 0, dispute: wire ?? null };
        }
        assertOrderMove(locked.statusId, ORDER_STATUS.canceled, MOVE_BY.cancellation, locked.facts);
        const historyReason = reasonText ? `Canceled by the customer: ${reasonText}` : 'Canceled by the customer';
        const outcome = await refundOrder(tx, {
          orderId: id,
          request: { kind: 'full', moveTo: null },
          actor,
          reason: historyReason,
          now,
          log,
        });
        const moved = await writes.move(
          { orderId: id, to: ORDER_STATUS.canceled, by: MOVE_BY.cancellation, actor, reason: historyReason, now },
          locked,
        );
        if (!moved.moved) throw conflict(moved.message);
        await recordTimelineEvent(tx, {
          orderId: id,
          type: 'canceled',
          actor,
          note: outcome.refundedCents > 0 ? `${formatUsd(outcome.refundedCents)} refunded` : reasonText || null,
          now,
        });
        log.info(
          { orderId: id, refundedCents: outcome.refundedCents, transactions: outcome.transactionIds.length },
          'order canceled by the customer',
        );
        return { canceled: true, refund: centsToAmount(outcome.refundedCents), dispute: null };
      });
    },

    /** Checks the order before the form is read: another customer's order is 404, an unpaid or closed one 409. */
    assertCanOpen: async ({ customerId, orderId }: { customerId: number; orderId: number }): Promise<void> => {
      const id = await ownOrder(customerId, orderId);
      const locked = await orderWrites(db).lockForMove(id);
      if (!locked) throw notFound();
      const money = await readOrderMoney(db, id);
      const problem = disputeOpenProblem({ statusId: locked.statusId, paidCents: money.paidCents });
      if (problem) throw conflict(problem);
      if (await repo.openDispute(id)) throw conflict(DISPUTE_MESSAGE.alreadyOpen);
    },

    /** CONTRACT "After payment": `POST …/disputes` (the files already stored through the one upload path). */
    open: async ({
      actor,
      orderId,
      reason,
      description,
      fileIds,
    }: {
      actor: Actor;
      orderId: number;
      reason: DisputeReason;
      description: string;
      fileIds: number[];
    }): Promise<Dispute> => {
      const id = await ownOrder(actor.userId, orderId);
      const now = clock.now();
      return db.transaction(async (tx) => {
        const locked = await orderWrites(tx).lockForMove(id);
        if (!locked) throw notFound();
        const money = await readOrderMoney(tx, id);
        const dispute = await openIn(tx, { actor, locked, money, reason, description, requestedRefundCents: null, fileIds, now });
        const [wire] = await withFiles([dispute], tx);
        if (!wire) throw notFound();
        return wire;
      });
    },

    /** CONTRACT "After payment": `GET …/disputes`, newest first. */
    list: async ({ customerId, orderId }: { customerId: number; orderId: number }): Promise<{ disputes: Dispute[] }> => {
      const id = await ownOrder(customerId, orderId);
      return { disputes: await withFiles(await repo.listForOrder(id)) };
    },

    /** Support's queue of disputes (support only: a writer gets 403). */
    staffList: async ({ actor, query }: { actor: Actor; query: StaffDisputeQuery }): Promise<StaffDisputeList> => {
      if (!isSupport(actor)) throw new DomainError(ERROR_CODE.forbidden, STAFF_MESSAGE.supportOnly);
      const { rows, total } = await repo.staffList({
        status: query.status,
        orderId: query.orderId ?? null,
        limit: query.limit,
        offset: (query.page - 1) * query.limit,
      });
      const wires = await withFiles(rows);
      const disputes = await Promise.all(
        rows.map(async (row, i) => {
          const money = await readOrderMoney(db, row.orderId);
          const wire = wires[i];
          if (!wire) throw notFound();
          return {
            ...wire,
            title: row.title,
            orderStatus: row.orderStatus,
            idWriter: row.writerId,
            deadline: row.deadline.toISOString(),
            paid: centsToAmount(money.paidCents),
            refundable: centsToAmount(refundableCents(money)),
          };
        }),
      );
      return { disputes, total };
    },

    /**
     * ADR 0087: support's one outcome, executed through the use cases the rest of the app uses, in one
     * transaction under the order's then the dispute's row lock: a refund through the one refund use case
     * (ADR 0072, with its credit note), the deadline through the delivery module, the writer through the
     * orders module's assignment. Resolving twice answers 409 and changes nothing; a refused outcome (an
     * amount over what is left, a deadline not later) rolls everything back and the dispute stays open.
     */
    resolve: async ({ actor, disputeId, body }: { actor: Actor; disputeId: number; body: DisputeResolutionBody }): Promise<Dispute> => {
      if (!isSupport(actor)) throw new DomainError(ERROR_CODE.forbidden, STAFF_MESSAGE.supportOnly);
      const message = clean(body.message);
      if (message === '') throw invalid('message', DISPUTE_MESSAGE.messageRequired);
      if (message.length > DISPUTE_RESOLUTION_MESSAGE_MAX_LENGTH) throw invalid('message', DISPUTE_MESSAGE.messageTooLong);
      let amountCents: number | null = null;
      if (body.outcome === 'partial_refund') {
        if (body.amount === undefined) throw invalid('amount', DISPUTE_MESSAGE.amountRequired);
        if (!Number.isFinite(body.amount) || body.amount <= 0 || Math.abs(body.amount * 100 - Math.round(body.amount * 100)) > 1e-6)
          throw invalid('amount', DISPUTE_MESSAGE.amountInvalid);
        amountCents = amountToCents(body.amount);
      }
      let deadline: Date | null = null;
      if (body.outcome === 'extend') {
        if (!body.deadline) throw invalid('deadline', DISPUTE_MESSAGE.deadlineRequired);
        deadline = new Date(body.deadline);
      }
      if (body.outcome === 'reassign' && body.idWriter === undefined) throw invalid('idWriter', DISPUTE_MESSAGE.writerRequired);

      const orderId = await repo.orderIdOf(disputeId);
      if (orderId === null) throw notFound();
      const now = clock.now();
      return db.transaction(async (tx) => {
        const writes = orderWrites(tx);
        const locked = await writes.lockForMove(orderId);
        if (!locked) throw notFound();
        const r = createDisputesRepo(tx);
        const dispute = await r.lock(disputeId);
        if (!dispute) throw notFound();
        if (dispute.status !== 'open') throw conflict(DISPUTE_MESSAGE.alreadyResolved);
        const reason = `Dispute #${dispute.id}: ${message}`;
        let refundedCents: number | null = null;
        let newWriterId: number | null = null;
        switch (body.outcome) {
          case 'full_refund': {
            const outcome = await refundOrder(tx, {
              orderId,
              request: { kind: 'full', moveTo: ORDER_STATUS.refunded },
              actor,
              reason,
              now,
              log,
            });
            refundedCents = outcome.refundedCents > 0 ? outcome.refundedCents : null;
            break;
          }
          case 'partial_refund': {
            const outcome = await refundOrder(tx, {
              orderId,
              request: { kind: 'amount', key: `dispute:${dispute.id}`, amountCents: amountCents ?? 0 },
              actor,
              reason,
              now,
              log,
            });
            refundedCents = outcome.refundedCents;
            break;
          }
          case 'extend':
            if (!deadline) throw invalid('deadline', DISPUTE_MESSAGE.deadlineRequired);
            await extendDeadlineBySupport(tx, { orderId, deadline, actor, note: reason, now });
            break;
          case 'reassign': {
            if (!DISPUTE_WORK_STATUSES.includes(locked.statusId)) throw conflict(DISPUTE_MESSAGE.notInWork);
            const writerId = body.idWriter ?? 0;
            if (!(await writes.assignWriter({ orderId, writerId, now, actor }))) throw invalid('idWriter', STAFF_MESSAGE.notAWriter);
            newWriterId = writerId;
            break;
          }
          case 'no_action':
            break;
        }
        if (
          !(await r.resolve({
            id: dispute.id,
            outcome: body.outcome,
            message,
            refundCents: refundedCents,
            newDeadline: body.outcome === 'extend' ? deadline : null,
            newWriterId,
            resolvedBy: actor.userId,
            now,
          }))
        )
          throw conflict(DISPUTE_MESSAGE.alreadyResolved);
        const label = disputeOutcomeLabel(body.outcome);
        // ADR 0090: support's outcome in the audit log, in the outcome's transaction.
        await recordAudit(tx, {
          actor,
          action: AUDIT_ACTION.disputeResolve,
          orderId,
          before: { disputeId: dispute.id, status: dispute.status },
          after: {
            disputeId: dispute.id,
            status: 'resolved',
            outcome: body.outcome,
            refunded: refundedCents === null ? null : refundedCents / 100,
            message,
          },
          at: now,
        });
        await recordTimelineEvent(tx, {
          orderId,
          type: 'dispute_resolved',
          actor,
          deadline: body.outcome === 'extend' ? deadline : null,
          note: refundedCents ? `${label}: ${formatUsd(refundedCents)}. ${message}` : `${label}. ${message}`,
          now,
        });
        await notify(tx, {
          userId: dispute.customerId,
          type: 'dispute_updated',
          orderId,
          facts: {
            note: `Support resolved your dispute: ${label}${refundedCents ? `, ${formatUsd(refundedCents)} refunded` : ''}. ${message}`,
          },
          now,
        });
        log.info({ orderId, disputeId: dispute.id, outcome: body.outcome, refundedCents }, 'dispute resolved');
        const after = await r.lock(dispute.id);
        if (!after) throw notFound();
        const [wire] = await withFiles([after], tx);
        if (!wire) throw notFound();
        return wire;
      });
    },
  };
};
export type DisputesService = ReturnType<typeof createDisputes>;
