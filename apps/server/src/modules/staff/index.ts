import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ModuleOptions } from '../../context';
import type { FilesService, UploadRate } from '../files';
import type { MoneySupport, PaymentAttention } from '../payments';
import type { RevisionsService } from '../revisions';
import { reversePointsForOrder } from '../loyalty';
import { recordRefund } from '../transactions';
import { createStaffRepo } from './staff.repo';
import { staffMoneyRoutes } from './staff.money.routes';
import { staffRoutes } from './staff.routes';
import { createStaffService } from './staff.service';

/** The services the staff API uses, each the app's one instance (services.ts). */
export interface StaffModuleDeps {
  files: FilesService;
  revisions: RevisionsService;
  money: MoneySupport;
  attention: PaymentAttention;
  /** ADR 0073: the one upload counter (deliveries count on the staff member's account). */
  uploadRate: UploadRate;
}

/** CONTRACT "Staff side": the staff API (writers and support): queue, status, writer, delivery; revisions (ADR 0044). */
export const staffModule: FastifyPluginAsyncZod<ModuleOptions & { deps: StaffModuleDeps }> = async (app, { ctx, deps }) => {
  const service = createStaffService({
    repo: createStaffRepo(ctx.db),
    clock: ctx.clock,
    files: deps.files,
    // ADR 0050: refunding an order takes its loyalty points back, in the same transaction.
    recordRefund: async (tx, refund) => {
      const id = await recordRefund(tx, refund);
      await reversePointsForOrder(tx, { orderId: refund.orderId, now: refund.now });
      return id;
    },
  });
  await app.register(staffRoutes, { service, revisions: deps.revisions, uploadRate: deps.uploadRate });
  await app.register(staffMoneyRoutes, { money: deps.money, attention: deps.attention });
};
