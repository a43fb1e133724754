import {
  DomainError,
  ERROR_CODE,
  ORDER_STATUS,
  ROLE,
  STAFF_MESSAGE,
  type OrderFile,
  type StaffMe,
  type StaffOrder,
  type StaffOrderList,
  type StaffOrderQuery,
} from '@app/domain';
import type { Clock } from '../../lib/clock';
import type { Queryable } from '../../db/client';
import type { FilesService } from '../files';
import { toOrderListItem } from '../orders';
import type { NewRefund } from '../transactions';
import type { StaffOrderRow, StaffRepo } from './staff.repo';
import { parseId } from '../../lib/ids';

const NOT_FOUND = 'Not found';

/** The signed-in staff member as the guard left it: id and role from the access token. */
export interface StaffActor {
  userId: number;
  role: number;
}

const isSupport = (actor: StaffActor): boolean => actor.role === ROLE.support;
/** A writer's queries are limited to their orders; support's are not (CONTRACT "Staff side"). */
const writerScope = (actor: StaffActor): number | null => (isSupport(actor) ? null : actor.userId);

const requireSupport = (actor: StaffActor): void => {
  // CONTRACT "Staff side": a writer on a support-only route gets 403.
  if (!isSupport(actor)) throw new DomainError(ERROR_CODE.forbidden, STAFF_MESSAGE.supportOnly);
};

const toWire = (row: StaffOrderRow): StaffOrder => {
  // The customer's list item, less what only the customer sees (hidden, unread), plus staff's fields.
  const { hidden: _hidden, unread: _unread, ...item } = toOrderListItem(row);
  return { ...item, idCustomer: row.customerId, idWriter: row.writerId };
};

export interface StaffServiceDeps {
  repo: StaffRepo;
  clock: Clock;
  files: Pick<FilesService, 'deliver'>;
  /** ADR 0024's refund record (modules/transactions), written in the status change's transaction. */
  recordRefund: (q: Queryable, refund: NewRefund) => Promise<number | null>;
}

export const createStaffService = ({ repo, clock, files, recordRefund }: StaffServiceDeps) => {
  const orderFor = async (actor: StaffActor, rawOrderId: string): Promise<StaffOrderRow> => {
    const row = await repo.findOrder({ orderId: parseId(rawOrderId), writerId: writerScope(actor) });
    if (!row) throw new DomainError(ERROR_CODE.notFound, NOT_FOUND);
    return row;
  };

  return {
    me: async ({ userId }: { userId: number }): Promise<StaffMe> => {
      const me = await repo.findStaff(userId);
      if (!me) throw new DomainError(ERROR_CODE.notFound, NOT_FOUND);
      return me;
    },

    /** CONTRACT "Staff side" queue: support sees every order, a writer the orders assigned to them. */
    queue: async ({ actor, query }: { actor: StaffActor; query: StaffOrderQuery }): Promise<StaffOrderList> => {
      const { rows, total } = await repo.queue({
        writerId: writerScope(actor),
        statusId: query.status ?? null,
        limit: query.limit,
        offset: (query.page - 1) * query.limit,
      });
      return { orders: rows.map(toWire), total };
    },

    /** ADR 0059: one queue row by id, under the same writer scope as the queue. */
    order: async ({ actor, orderId }: { actor: StaffActor; orderId: string }): Promise<StaffOrder> =>
      toWire(await orderFor(actor, orderId)),

    /**
     * CONTRACT "Staff side": support sets any status; every change lands in the order's statusHistory
     * with who made it. Setting the status the order already has changes nothing. Refunded (7) records
     * a refund of the order's recorded payment, once (ADR 0024's transactions), in the same transaction.
     */
    setStatus: async ({
      actor,
      orderId: rawOrderId,
      status,
    }: {
      actor: StaffActor;
      orderId: string;
      status: number;
    }): Promise<StaffOrder> => {
      requireSupport(actor);
      const order = await orderFor(actor, rawOrderId);
      if (order.statusId !== status) {
        const now = clock.now();
        await repo.changeStatus({
          orderId: order.id,
          statusId: status,
          changedBy: actor.userId,
          now,
          alsoInTransaction:
            status === ORDER_STATUS.refunded
              ? async (tx) => {
                  const paid = await repo.paymentToRefund(tx, { orderId: order.id });
                  if (paid) await recordRefund(tx, { orderId: order.id, ...paid, now });
                }
              : undefined,
        });
      }
      return toWire(await orderFor(actor, rawOrderId));
    },

    /** CONTRACT "Staff side": support assigns a writer account (422 for any other id). */
    assignWriter: async ({
      actor,
      orderId: rawOrderId,
      writerId,
    }: {
      actor: StaffActor;
      orderId: string;
      writerId: number;
    }): Promise<StaffOrder> => {
      requireSupport(actor);
      const order = await orderFor(actor, rawOrderId);
      if (!(await repo.isWriter({ userId: writerId }))) {
        throw new DomainError(ERROR_CODE.validation, STAFF_MESSAGE.notAWriter, { idWriter: [STAFF_MESSAGE.notAWriter] });
      }
      await repo.assignWriter({ orderId: order.id, writerId, now: clock.now() });
      return toWire(await orderFor(actor, rawOrderId));
    },

    /** Checks the order before the body is read: a writer not assigned to it gets 404. */
    orderForDelivery: async ({
      actor,
      orderId,
    }: {
      actor: StaffActor;
      orderId: string;
    }): Promise<{ orderId: number; customerId: number }> => {
      const order = await orderFor(actor, orderId);
      return { orderId: order.id, customerId: order.customerId };
    },

    /** CONTRACT "Staff side" delivery: the file becomes a writer file the customer lists and downloads. */
    deliver: async ({
      actor,
      order,
      file,
    }: {
      actor: StaffActor;
      order: { orderId: number; customerId: number };
      file: Parameters<FilesService['deliver']>[0]['file'];
    }): Promise<OrderFile> => files.deliver({ customerId: order.customerId, orderId: order.orderId, uploadedBy: actor.userId, file }),
  };
};
export type StaffService = ReturnType<typeof createStaffService>;
