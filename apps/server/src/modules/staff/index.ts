import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ModuleOptions } from '../../context';
import type { FilesService, UploadRate } from '../files';
import { refundOrder, type ManualPayments, type MoneySupport, type PaymentAttention } from '../payments';
import type { AfterPayment } from '../delivery';
import type { RevisionsService } from '../revisions';
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
  manualPayments: ManualPayments;
  /** ADR 0084: the order view's delivery, proposal, timeline and alert. */
  afterPayment: Pick<AfterPayment, 'staffView'>;
  /** ADR 0073: the one upload counter (deliveries count on the staff member's account). */
  uploadRate: UploadRate;
}

/** CONTRACT "Staff side": the staff API (writers and support): queue, status (ADR 0071), manual payments, writer, delivery; revisions (ADR 0044). */
export const staffModule: FastifyPluginAsyncZod<ModuleOptions & { deps: StaffModuleDeps }> = async (app, { ctx, deps }) => {
  const service = createStaffService({
    db: ctx.db,
    repo: createStaffRepo(ctx.db),
    clock: ctx.clock,
    log: ctx.log,
    files: deps.files,
    // ADR 0072: the one refund use case (refund transactions, loyalty points, the move to 7).
    refundOrder,
    manualPayments: deps.manualPayments,
    afterPayment: deps.afterPayment,
    // ADR 0089: the writer's pay and deadline rules, from settings.
    writerTerms: ctx.config.writerTerms,
    reader: ctx.db,
  });
  await app.register(staffRoutes, { service, revisions: deps.revisions, uploadRate: deps.uploadRate });
  await app.register(staffMoneyRoutes, { money: deps.money, attention: deps.attention });
};
