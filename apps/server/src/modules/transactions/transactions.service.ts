import { PassThrough, type Readable } from 'node:stream';
import yazl from 'yazl';
import {
  centsToAmount,
  documentFileName,
  documentNumber,
  DomainError,
  ERROR_CODE,
  RECEIPTS_MESSAGE,
  type TransactionList,
} from '@app/domain';
import { notFound } from '../../lib/errors';
import { isoInstant } from '../../lib/iso-instant';
import type { Logger } from '../../lib/logger';
import type { createDocumentsRepo } from './transactions.documents.repo';
import { renderDocumentPdf } from './transactions.documents.pdf';
import type { createTransactionsRepo } from './transactions.repo';

/** At most this many documents in one year's ZIP (far above a customer's year; the query stops there). */
const ARCHIVE_MAX_DOCUMENTS = 2000;

export const createTransactionsService = ({
  repo,
  documents,
  fontFile,
  log,
}: {
  repo: ReturnType<typeof createTransactionsRepo>;
  documents: ReturnType<typeof createDocumentsRepo>;
  fontFile: string | undefined;
  log: Logger;
}) => ({
  /**
   * CONTRACT "Paths": the customer's payments and refunds, newest first, one page. Each built in one object in
   * `transactionSchema`'s key order: the page is written as built (`builtAnswerSerializer`, ADR 0081), so this
   * order is the JSON's (`transactions.list-wire.test.ts` holds it to the schema).
   */
  async list({ customerId, page, limit }: { customerId: number; page: number; limit: number }): Promise<TransactionList> {
    const { transactions, total } = await repo.list({ customerId, limit, offset: (page - 1) * limit });
    return {
      transactions: transactions.map((t) => ({
        id: t.id,
        date: isoInstant(t.createdAt),
        orderId: t.orderId,
        orderTitle: t.orderTitle,
        provider: t.provider,
        amount: centsToAmount(t.amountCents),
        type: t.type,
        status: t.status,
        sandbox: t.sandbox,
        document: t.document ? { kind: t.document.kind, number: documentNumber(t.document.kind, t.document.number) } : null,
      })),
      total,
    };
  },

  /** ADR 0080: the check a download link is given after: the document is the customer's (404 otherwise); nothing drawn. */
  async assertDocument({ customerId, transactionId }: { customerId: number; transactionId: number }): Promise<void> {
    if (!(await documents.findForCustomer(customerId, transactionId))) throw notFound();
  },

  /** ADR 0080: the year's ZIP has something in it (404 with the contract's words otherwise); nothing drawn. */
  async assertYear({ customerId, year }: { customerId: number; year: number }): Promise<void> {
    if (!(await documents.yearsForCustomer(customerId)).includes(year))
      throw new DomainError(ERROR_CODE.notFound, RECEIPTS_MESSAGE.noneInYear(year));
  },

  /** CONTRACT "After payment": the PDF of a transaction's receipt or credit note (another customer's: 404). */
  async documentPdf({
    customerId,
    transactionId,
  }: {
    customerId: number;
    transactionId: number;
  }): Promise<{ fileName: string; pdf: Buffer }> {
    const doc = await documents.findForCustomer(customerId, transactionId);
    if (!doc) throw notFound();
    return { fileName: documentFileName(doc.kind, doc.number), pdf: await renderDocumentPdf(doc, { fontFile }) };
  },

  /** The years the customer has documents in, newest first (the ZIP's choices). */
  async years({ customerId }: { customerId: number }): Promise<{ years: number[] }> {
    return { years: await documents.yearsForCustomer(customerId) };
  },

  /**
   * Every document the customer was issued in one UTC year, as one ZIP streamed out: each PDF is drawn
   * only when the archive reaches it, so memory holds one at a time. 404 when the year has none.
   */
  async yearArchive({ customerId, year }: { customerId: number; year: number }): Promise<{ fileName: string; stream: Readable }> {
    const from = new Date(Date.UTC(year, 0, 1));
    const to = new Date(Date.UTC(year + 1, 0, 1));
    const docs = await documents.listForCustomer(customerId, from, to, ARCHIVE_MAX_DOCUMENTS);
    if (docs.length === 0) throw new DomainError(ERROR_CODE.notFound, RECEIPTS_MESSAGE.noneInYear(year));
    const zip = new yazl.ZipFile();
    for (const doc of docs) {
      zip.addReadStreamLazy(documentFileName(doc.kind, doc.number), { mtime: doc.issuedAt, compress: false }, (cb) => {
        const out = new PassThrough();
        renderDocumentPdf(doc, { fontFile }).then(
          (pdf) => out.end(pdf),
          (error: unknown) => {
            log.error({ err: error, transactionId: doc.transactionId }, 'receipt archive: a document could not be drawn');
            out.destroy(error instanceof Error ? error : new Error(String(error)));
          },
        );
        cb(null, out);
      });
    }
    zip.end();
    return { fileName: `receipts-${year}.zip`, stream: zip.outputStream as Readable };
  },
});
export type TransactionsService = ReturnType<typeof createTransactionsService>;
