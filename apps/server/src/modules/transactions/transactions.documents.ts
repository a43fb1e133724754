import { DOCUMENT_KIND, type DocumentSnapshot, type MoneyProvider, type SellerDetails } from '@app/domain';
import type { Db, Queryable } from '../../db/client';
import { readBuyerForDocument } from '../customers';
import { readOrderForDocument } from '../orders';
import { createDocumentsRepo } from './transactions.documents.repo';

/** The money row a document is issued for. */
export interface DocumentedTransaction {
  transactionId: number;
  customerId: number;
  orderId: number;
  type: 'payment' | 'refund';
  paymentId: string | null;
  provider: MoneyProvider;
  amountCents: number;
  currency: string;
  sandbox: boolean;
  at: Date;
}

/**
 * ADR 0085: issues the receipt of a settled payment or the credit note of a refund, in the transaction
 * that wrote the money row. The snapshot is read first (the order, the buyer's billing details, the
 * seller), then the counter row is taken, so its lock is held for the shortest time; a rollback of the
 * money gives the number back.
 */
export const issueDocument = async (q: Queryable, t: DocumentedTransaction): Promise<void> => {
  const repo = createDocumentsRepo(q);
  const kind = t.type === 'payment' ? DOCUMENT_KIND.receipt : DOCUMENT_KIND.creditNote;
  const order = await readOrderForDocument(q, { orderId: t.orderId, customerId: t.customerId });
  const buyer = await readBuyerForDocument(q, t.customerId);
  if (!order || !buyer) throw new Error(`transaction ${t.transactionId}: its order or customer is missing`);
  const seller = await repo.seller();
  const refersTo = kind === DOCUMENT_KIND.creditNote ? await repo.receiptFor({ orderId: t.orderId, paymentId: t.paymentId }) : null;
  const snapshot: DocumentSnapshot = {
    version: 1,
    seller,
    buyer,
    order,
    money: {
      provider: t.provider,
      amountCents: t.amountCents,
      currency: t.currency,
      date: t.at.toISOString(),
      reference: t.paymentId,
      sandbox: t.sandbox,
    },
  };
  const number = await repo.takeNumber(kind);
  await repo.insert({ transactionId: t.transactionId, customerId: t.customerId, kind, number, refersTo, issuedAt: t.at, snapshot });
};

const CATCH_UP_BATCH = 200;

/**
 * ADR 0085: a document for every settled payment and refund that has none (money written before migration
 * 0022, or by the demo seed), oldest first, at most `batches` batches. Each batch holds both counters
 * before it reads what is missing, so two instances catching up together never issue one twice. Returns
 * how many it issued and whether nothing is left.
 */
export const catchUpDocuments = async (db: Db, batches: number): Promise<{ issued: number; done: boolean }> => {
  let issued = 0;
  for (let batch = 0; batch < batches; batch++) {
    const count = await db.transaction(async (tx) => {
      const repo = createDocumentsRepo(tx);
      await repo.lockCounters();
      const missing = await repo.undocumented(CATCH_UP_BATCH);
      for (const m of missing) {
        await issueDocument(tx, {
          transactionId: m.id,
          customerId: m.customerId,
          orderId: m.orderId,
          type: m.type,
          paymentId: m.paymentId,
          provider: m.provider,
          amountCents: m.amountCents,
          currency: m.currency,
          sandbox: m.sandbox,
          at: m.createdAt,
        });
      }
      return missing.length;
    });
    issued += count;
    if (count < CATCH_UP_BATCH) return { issued, done: true };
  }
  return { issued, done: false };
};

/** The batches caught up before the server answers (ADR 0099): the rest is issued in the background. */
export const CATCH_UP_AT_START = 2;

/**
 * ADR 0085, at start: the seller from the settings, then the documents missing, up to CATCH_UP_AT_START
 * batches (ADR 0099: a database upgraded with 800,000 undocumented payments must not hold the start for
 * an hour; the module goes on in the background).
 */
export const prepareDocuments = async (db: Db, { seller }: { seller: SellerDetails }): Promise<{ issued: number; done: boolean }> => {
  await createDocumentsRepo(db).setSeller(seller);
  return catchUpDocuments(db, CATCH_UP_AT_START);
};
