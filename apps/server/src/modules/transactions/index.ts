import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { ModuleOptions } from '../../context';
import type { Queryable } from '../../db/client';
import { documentFileName, TRANSACTION_STATUS } from '@app/domain';
import { renderDocumentPdf } from './transactions.documents.pdf';
import { catchUpDocuments, issueDocument, prepareDocuments } from './transactions.documents';
import { createDocumentsRepo } from './transactions.documents.repo';
import { createTransactionsRepo, type NewPaymentTransaction, type NewRefund, type OrderMoneyRecord } from './transactions.repo';
import { transactionsRoutes } from './transactions.routes';
import { createTransactionsService } from './transactions.service';

export type { NewPaymentTransaction, NewRefund, OrderMoneyRecord };
/** The personal-data report's section (ADR 0052, 0077). */
export { receiptsReport, transactionsReport } from './transactions.personal-data.repo';

/** SPEC §2 /transactions: the customer's payments and refunds (ADR 0024), their receipts and credit notes (ADR 0085). */
export const transactionsModule: FastifyPluginAsyncZod<ModuleOptions> = async (app, { ctx }) => {
  // ADR 0085: the seller of the next documents, and a document for any settled money that has none.
  const start = await prepareDocuments(ctx.db, { seller: ctx.config.seller });
  if (start.issued > 0) ctx.log.info({ issued: start.issued }, 'receipts and credit notes issued for money recorded without one');
  if (!start.done) {
    // ADR 0099: the rest in the background, a batch at a time, until none is missing or the server closes.
    let closing = false;
    let running: Promise<void> = Promise.resolve();
    app.addHook('onReady', async () => {
      running = (async () => {
        let issued = 0;
        for (let done = false; !done && !closing;) {
          const batch = await catchUpDocuments(ctx.db, 1);
          issued += batch.issued;
          done = batch.done;
        }
        ctx.log.info({ issued }, 'receipts and credit notes caught up in the background');
      })().catch((error: unknown) => ctx.log.error({ err: error }, 'issuing the missing receipts and credit notes failed'));
    });
    app.addHook('onClose', async () => {
      closing = true;
      await running;
    });
  }
  const service = createTransactionsService({
    repo: createTransactionsRepo(ctx.db),
    documents: createDocumentsRepo(ctx.db),
    fontFile: ctx.config.receiptFontFile,
    log: ctx.log,
  });
  await app.register(transactionsRoutes, { service });
};

/**
 * Writes the payment row of a paid attempt inside the caller's transaction (the payments module's
 * callback); false when the attempt already has one. A settled payment gets its numbered receipt in the
 * same transaction (ADR 0085); money parked for support (`unapplied`) gets none.
 */
export const recordPaymentTransaction = async (q: Queryable, t: NewPaymentTransaction): Promise<boolean> => {
  const id = await createTransactionsRepo(q).insertPayment(t);
  if (id === null) return false;
  if ((t.status ?? TRANSACTION_STATUS.completed) === TRANSACTION_STATUS.completed)
    await issueDocument(q, {
      transactionId: id,
      customerId: t.customerId,
      orderId: t.orderId,
      type: 'payment',
      paymentId: t.paymentId,
      provider: t.provider,
      amountCents: t.amountCents,
      currency: t.currency,
      sandbox: t.sandbox ?? false,
      at: t.now,
    });
  return true;
};

/**
 * ADR 0089: parked money support applied to its order: its payment row, recorded as not applied, becomes
 * completed and gets its receipt, in the caller's transaction. False when there was no such row.
 */
export const applyParkedPayment = async (q: Queryable, { paymentId, now }: { paymentId: string; now: Date }): Promise<boolean> => {
  const row = await createTransactionsRepo(q).applyParked({ paymentId });
  if (!row) return false;
  await issueDocument(q, {
    transactionId: row.id,
    customerId: row.customerId,
    orderId: row.orderId,
    type: 'payment',
    paymentId,
    provider: row.provider,
    amountCents: row.amountCents,
    currency: row.currency,
    sandbox: row.sandbox,
    at: now,
  });
  return true;
};

/** ADR 0072: the order's applied payments and refunds, in the caller's transaction (the refund use case). */
export const readOrderMoney = (q: Queryable, orderId: number): Promise<OrderMoneyRecord> => createTransactionsRepo(q).orderMoney(orderId);

/**
 * Records a refund of an order (only the payments module's refund use case calls it, ADR 0072); the customer is
 * the order's owner. Returns the new row's id, or null when the order does not exist or the payment is
 * already refunded (one refund per paid attempt, ADR 0036).
 */
export const recordRefund = async (q: Queryable, r: NewRefund): Promise<number | null> => {
  const row = await createTransactionsRepo(q).insertRefund(r);
  if (!row) return null;
  // ADR 0085: its credit note, naming the receipt of the money it gives back, in the same transaction.
  await issueDocument(q, {
    transactionId: row.id,
    customerId: row.customerId,
    orderId: r.orderId,
    type: 'refund',
    paymentId: r.paymentId,
    provider: r.provider,
    amountCents: r.amountCents,
    currency: r.currency,
    sandbox: r.sandbox ?? false,
    at: r.now,
  });
  return row.id;
};

/**
 * ADR 0088: the PDF of a settled payment's receipt (or a refund's credit note), for the notifications
 * module's mail; null when the payment has no document (money parked for support) or is not the customer's.
 */
export const documentPdfOfPayment = async (
  q: Queryable,
  {
    customerId,
    paymentId,
    transactionId,
    fontFile,
  }: { customerId: number; paymentId?: string; transactionId?: number; fontFile: string | undefined },
): Promise<{ fileName: string; pdf: Buffer } | null> => {
  let id = transactionId;
  if (id === undefined && paymentId !== undefined) {
    id = (await createDocumentsRepo(q).paymentTransactionId(paymentId)) ?? undefined;
  }
  if (id === undefined) return null;
  const doc = await createDocumentsRepo(q).findForCustomer(customerId, id);
  if (!doc) return null;
  return { fileName: documentFileName(doc.kind, doc.number), pdf: await renderDocumentPdf(doc, { fontFile }) };
};
