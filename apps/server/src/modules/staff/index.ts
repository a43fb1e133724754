import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ModuleOptions } from '../../context';
import { createFiles } from '../files';
import { reversePointsForOrder } from '../loyalty';
import { createMoneySupport } from '../payments';
import { createRevisions } from '../revisions';
import { recordRefund } from '../transactions';
import { createStaffRepo } from './staff.repo';
import { staffMoneyRoutes } from './staff.money.routes';
import { staffRoutes } from './staff.routes';
import { createStaffService } from './staff.service';

/** CONTRACT "Staff side": the staff API (writers and support): queue, status, writer, delivery; revisions (issue 11). */
export const staffModule: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  const service = createStaffService({
    repo: createStaffRepo(ctx.db),
    clock: ctx.clock,
    files: createFiles(ctx),
    // Issue 12 (ADR 0050): refunding an order takes its loyalty points back, in the same transaction.
    recordRefund: async (tx, refund) => {
      const id = await recordRefund(tx, refund);
      await reversePointsForOrder(tx, { orderId: refund.orderId, now: refund.now });
      return id;
    },
  });
  await app.register(staffRoutes, { service, revisions: createRevisions(ctx) });
  await app.register(staffMoneyRoutes, { money: createMoneySupport({ db: ctx.db, clock: ctx.clock, log: ctx.log }) });
};
