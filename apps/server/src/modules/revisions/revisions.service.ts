import {
  AUDIT_ACTION,
  canMoveRevision,
  DomainError,
  ERROR_CODE,
  isActiveRevisionStatus,
  ORDER_STATUS,
  REVISION_CATEGORIES,
  REVISION_LEVELS,
  REVISION_MESSAGE,
  REVISION_STATUS,
  REVISION_STATUS_NAME,
  revisionCategory,
  revisionEta,
  revisionLevel,
  revisionRequestProblems,
  revisionRequestRefusal,
  revisionWindow,
  STAFF_MESSAGE,
  stripHtml,
  WRITER_REVISION_STATUSES,
  type OrderFile,
  type Revision,
  type RevisionCreateBody,
  type RevisionList,
  type RevisionListQuery,
  type RevisionStatusId,
  type StaffRevision,
  type StaffRevisionList,
  type StaffRevisionQuery,
} from '@app/domain';
import type { Clock } from '../../lib/clock';
import { isSupport, writerScope, type Actor } from '../../lib/actor';
import type { FilesService } from '../files';
import { isUniqueViolation, type RevisionRow, type RevisionsRepo, type StaffRevisionRow } from './revisions.repo';
import { notFound } from '../../lib/errors';
import { recordAudit } from '../audit';
import { notify } from '../notifications';

type IncomingFile = Parameters<FilesService['storeForRevision']>[0]['file'];

export interface RevisionsServiceDeps {
  repo: RevisionsRepo;
  clock: Clock;
  files: Pick<FilesService, 'storeForRevision' | 'listForRevision'>;
}

export const createRevisionsService = ({ repo, clock, files }: RevisionsServiceDeps) => {
  const toWire = async (rows: RevisionRow[]): Promise<Revision[]> => {
    const history = await repo.history(rows.map((r) => r.id));
    return rows.map((r) => {
      const level = revisionLevel(r.levelId);
      return {
        id: r.id,
        idOrder: r.orderId,
        revisionStatus: { id: r.statusId, name: REVISION_STATUS_NAME[r.statusId as RevisionStatusId] ?? 'Unknown' },
        deadline: r.deadline.toISOString(),
        dateCreated: r.createdAt.toISOString(),
        categories: r.categoryIds.map((id) => ({ id, name: revisionCategory(id)?.name ?? '' })),
        description: r.description,
        revisionLevel: { id: r.levelId, name: level?.name ?? '' },
        statusHistory: (history.get(r.id) ?? []).map((h) => ({ status: h.status, date: h.date.toISOString() })),
      };
    });
  };
  const toStaffWire = async (rows: StaffRevisionRow[]): Promise<StaffRevision[]> => {
    const wire = await toWire(rows);
    return wire.map((w, i) => ({ ...w, idCustomer: rows[i]?.customerId ?? 0, idWriter: rows[i]?.writerId ?? null }));
  };

  const ownOrder = async (customerId: number, orderId: number) => {
    const state = await repo.orderState({ customerId, orderId });
    if (!state) throw notFound();
    return state;
  };
  const ownRevision = async (customerId: number, revisionId: number): Promise<RevisionRow> => {
    const row = await repo.find({ customerId, revisionId });
    if (!row) throw notFound();
    return row;
  };
  const staffRevision = async (actor: Actor, revisionId: number): Promise<StaffRevisionRow> => {
    const row = await repo.staffFind({ revisionId, writerId: writerScope(actor) });
    if (!row) throw notFound();
    return row;
  };

  return {
    /** SPEC §7: the categories and levels (no token needed, CONTRACT). */
    categories: () => REVISION_CATEGORIES.map(({ id, name }) => ({ id, name })),
    levels: () => REVISION_LEVELS.map(({ id, name, hours }) => ({ id, name, hours })),

    /** SPEC §7 list: the order's revisions newest first, with the order's window and active revision. */
    list: async ({ customerId, query }: { customerId: number; query: RevisionListQuery }): Promise<RevisionList> => {
      const state = await ownOrder(customerId, query.idOrder);
      const { rows, total } = await repo.list({
        customerId,
        orderId: query.idOrder,
        limit: query.limit,
        offset: (query.page - 1) * query.limit,
      });
      const window = revisionWindow({ completedAt: state.completedAt, pages: state.pages, now: clock.now() });
      return {
        revisions: await toWire(rows),
        total,
        window: { until: window.until?.toISOString() ?? null, open: window.open, daysLeft: window.daysLeft },
        activeRevision: state.activeRevisionId === null ? null : { id: state.activeRevisionId },
      };
    },

    get: async ({ customerId, revisionId }: { customerId: number; revisionId: number }): Promise<Revision> => {
      const [wire] = await toWire([await ownRevision(customerId, revisionId)]);
      if (!wire) throw notFound();
      return wire;
    },

    /** The order's active revision for its detail (SPEC §3 "activeRevision"). */
    activeRevision: async ({ customerId, orderId }: { customerId: number; orderId: number }): Promise<{ id: number } | null> => {
      const state = await repo.orderState({ customerId, orderId });
      return state?.activeRevisionId ? { id: state.activeRevisionId } : null;
    },

    /**
     * SPEC §7 `POST /api/en/orders/{id}/revisions`. Another customer's order: 404. Not completed, outside
     * the window, or with an active revision: 409 with the reason. Categories, description and level:
     * 422 by field. The one-active index settles two concurrent requests (one is stored, the other 409).
     */
    create: async ({
      customerId,
      orderId,
      body,
    }: {
      customerId: number;
      orderId: number;
      body: RevisionCreateBody;
    }): Promise<{ id: number }> => {
      const state = await ownOrder(customerId, orderId);
      const now = clock.now();
      const refusal = revisionRequestRefusal({
        orderStatus: state.statusId,
        window: revisionWindow({ completedAt: state.completedAt, pages: state.pages, now }),
        hasActiveRevision: state.activeRevisionId !== null,
      });
      if (refusal) throw new DomainError(ERROR_CODE.conflict, refusal.message);
      const description = stripHtml(body.describeProblem).trim();
      const categoryIds = [...new Set(body.category)];
      const problems = revisionRequestProblems({ category: categoryIds, describeProblem: description, revisionLevel: body.revisionLevel });
      const first = Object.values(problems)[0]?.[0];
      if (first !== undefined) throw new DomainError(ERROR_CODE.validation, first, problems);
      const levelId = body.revisionLevel ?? 0;
      const deadline = revisionEta(now, levelId);
      if (!deadline) throw new DomainError(ERROR_CODE.validation, REVISION_MESSAGE.unknownLevel);
      const stored = await repo.insert({ customerId, orderId, levelId, categoryIds, description, deadline, now });
      if (!stored) {
        const after = await ownOrder(customerId, orderId);
        throw new DomainError(
          ERROR_CODE.conflict,
          after.statusId !== ORDER_STATUS.completed ? REVISION_MESSAGE.notCompleted : REVISION_MESSAGE.activeRevision,
        );
      }
      return stored;
    },

    listFiles: async ({
      customerId,
      revisionId,
      source,
    }: {
      customerId: number;
      revisionId: number;
      source: 'customer' | 'writer';
    }): Promise<OrderFile[]> => {
      const revision = await ownRevision(customerId, revisionId);
      return files.listForRevision({ customerId, revisionId: revision.id, source });
    },

    /** Checks the revision before the body is read: another customer's is a 404, an ended one a 409. */
    revisionForUpload: async ({ customerId, revisionId }: { customerId: number; revisionId: number }): Promise<RevisionRow> => {
      const revision = await ownRevision(customerId, revisionId);
      if (!isActiveRevisionStatus(revision.statusId)) throw new DomainError(ERROR_CODE.conflict, REVISION_MESSAGE.notActive);
      return revision;
    },

    /** SPEC §7 `POST …/revisions/{id}/customers/files`: SPEC §5 order-file rules, streamed; a refusal stores nothing. */
    upload: async ({ revision, file }: { revision: RevisionRow; file: IncomingFile }): Promise<OrderFile> =>
      files.storeForRevision({
        customerId: revision.customerId,
        orderId: revision.orderId,
        revisionId: revision.id,
        source: 'customer',
        uploadedBy: revision.customerId,
        file,
      }),

    /** CONTRACT "Staff side": support sees every revision, a writer those of the orders assigned to them. */
    staffList: async ({ actor, query }: { actor: Actor; query: StaffRevisionQuery }): Promise<StaffRevisionList> => {
      const { rows, total } = await repo.staffList({
        writerId: writerScope(actor),
        orderId: query.idOrder ?? null,
        statusId: query.status ?? null,
        limit: query.limit,
        offset: (query.page - 1) * query.limit,
      });
      return { revisions: await toStaffWire(rows), total };
    },

    /**
     * CONTRACT "Staff side" `PUT /api/staff/revisions/{id}/status`: only the moves of the state machine
     * (422 otherwise); a writer only on their orders (404) and only to in progress or verifying (403).
     * Completion mails the customer a link to the revision.
     */
    staffSetStatus: async ({ actor, revisionId, status }: { actor: Actor; revisionId: number; status: number }): Promise<StaffRevision> => {
      const revision = await staffRevision(actor, revisionId);
      if (!isSupport(actor) && !(WRITER_REVISION_STATUSES as readonly number[]).includes(status)) {
        throw new DomainError(ERROR_CODE.forbidden, STAFF_MESSAGE.supportOnly);
      }
      if (!canMoveRevision(revision.statusId, status)) {
        throw new DomainError(ERROR_CODE.validation, REVISION_MESSAGE.moveNotAllowed, { status: [REVISION_MESSAGE.moveNotAllowed] });
      }
      let moved: boolean;
      try {
        moved = await repo.move({
          revisionId: revision.id,
          from: revision.statusId,
          to: status,
          changedBy: actor.userId,
          now: clock.now(),
          // ADR 0090: the audit entry, and ADR 0088: the customer is told of every move they see (verifying
          // is staff's own step), both in the move's transaction.
          also: async (tx) => {
            await recordAudit(tx, {
              actor,
              action: AUDIT_ACTION.revisionStatus,
              orderId: revision.orderId,
              before: { revisionId: revision.id, status: revision.statusId },
              after: { revisionId: revision.id, status },
              at: clock.now(),
            });
            if (status === REVISION_STATUS.verifying) return;
            await notify(tx, {
              userId: revision.customerId,
              type: 'revision_updated',
              orderId: revision.orderId,
              facts: { revisionId: revision.id, revisionStatus: REVISION_STATUS_NAME[status as RevisionStatusId] ?? 'updated' },
              now: clock.now(),
            });
          },
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new DomainError(ERROR_CODE.conflict, REVISION_MESSAGE.activeRevision);
        throw error;
      }
      if (!moved) throw new DomainError(ERROR_CODE.conflict, REVISION_MESSAGE.moveNotAllowed);
      const [wire] = await toStaffWire([await staffRevision(actor, revisionId)]);
      if (!wire) throw notFound();
      return wire;
    },

    /** Checks the revision before the body is read: a writer not on its order gets 404. */
    staffRevisionForDelivery: async ({ actor, revisionId }: { actor: Actor; revisionId: number }): Promise<StaffRevisionRow> =>
      staffRevision(actor, revisionId),

    /** The writer (or support) delivers a revised file: a writer file of the revision the customer downloads. */
    staffDeliver: async ({ actor, revision, file }: { actor: Actor; revision: StaffRevisionRow; file: IncomingFile }): Promise<OrderFile> =>
      files.storeForRevision({
        customerId: revision.customerId,
        orderId: revision.orderId,
        revisionId: revision.id,
        source: 'writer',
        uploadedBy: actor.userId,
        file,
        onRecorded: (tx, stored) =>
          recordAudit(tx, {
            actor,
            action: AUDIT_ACTION.revisionFile,
            orderId: revision.orderId,
            before: null,
            after: { revisionId: revision.id, file: stored },
            at: clock.now(),
          }),
      }),
  };
};
export type RevisionsService = ReturnType<typeof createRevisionsService>;
