import PDFDocument from 'pdfkit';
import {
  buyerLines,
  DOCUMENT_KIND,
  DOCUMENT_TITLE,
  documentLines,
  documentNumber,
  formatUsd,
  MONEY_PROVIDER_NAME,
  type DocumentKind,
  type DocumentSnapshot,
} from '@app/domain';

/** What a PDF is drawn from: the stored document (ADR 0085). */
export interface PrintableDocument {
  kind: DocumentKind;
  number: number;
  issuedAt: Date;
  snapshot: DocumentSnapshot;
  refersTo: { number: number; issuedAt: Date } | null;
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
/** `26 Nov 2026`, in UTC: the same text on every server, whatever its locale or zone. */
const day = (d: Date): string => `${d.getUTCDate()} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
const dayTime = (d: Date): string => `${day(d)}, ${d.toISOString().slice(11, 16)} UTC`;

/**
 * The built-in Helvetica writes WinAnsi (Latin-1 and a few signs) only. Without RECEIPT_FONT_FILE, a
 * letter it cannot write loses its accent when it has one (NFD), or prints as `?`, never as a wrong glyph.
 */
const WIN_ANSI_EXTRA = new Set([...'€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ']);
const toWinAnsi = (text: string): string =>
  [...text]
    .map((c) => {
      const code = c.codePointAt(0) ?? 0;
      if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || c === '\n' || WIN_ANSI_EXTRA.has(c)) return c;
      const base = c.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      return base.length > 0 && [...base].every((b) => (b.codePointAt(0) ?? 0) <= 0xff) ? base : '?';
    })
    .join('');

/** `$12.50`, `-$2.00` (a discount, a refund); another currency by its code. */
const money = (cents: number, currency: string): string => {
  const amount = formatUsd(Math.abs(cents));
  const sign = cents < 0 ? '-' : '';
  return currency === 'USD' ? `${sign}${amount}` : `${sign}${amount.slice(1)} ${currency}`;
};

/**
 * Draws a receipt or a credit note as a PDF with pdfkit (ADR 0085): A4, the seller, the buyer, the order's
 * lines, the amount, provider and date, all from the snapshot. The document's dates are fixed to its issue
 * time, so the same document gives the same bytes every time it is downloaded.
 */
export const renderDocumentPdf = (doc: PrintableDocument, { fontFile }: { fontFile?: string | undefined } = {}): Promise<Buffer> => {
  const { snapshot: s } = doc;
  const number = documentNumber(doc.kind, doc.number);
  const title = DOCUMENT_TITLE[doc.kind];
  const pdf = new PDFDocument({
    size: 'A4',
    margin: 50,
    info: {
      Title: `${title} ${number}`,
      Author: s.seller.name,
      Creator: s.seller.name,
      Producer: 'pdfkit',
      CreationDate: doc.issuedAt,
      ModDate: doc.issuedAt,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (c: Buffer) => chunks.push(c));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });

  const regular = fontFile ? 'Body' : 'Helvetica';
  const bold = fontFile ? 'Body' : 'Helvetica-Bold';
  if (fontFile) pdf.registerFont('Body', fontFile);
  const t = fontFile ? (v: string) => v : toWinAnsi;
  const left = 50;
  const width = pdf.page.width - 100;
  const amountX = left + width - 120;

  // The seller, and the document's title, number and date on the right.
  const top = pdf.y;
  pdf
    .font(bold)
    .fontSize(14)
    .text(t(s.seller.name), left, top, { width: width - 200 });
  pdf.font(regular).fontSize(9);
  for (const line of s.seller.address.split('\n').filter(Boolean)) pdf.text(t(line), { width: width - 200 });
  if (s.seller.taxId) pdf.text(t(`Tax ID: ${s.seller.taxId}`), { width: width - 200 });
  if (s.seller.email) pdf.text(t(s.seller.email), { width: width - 200 });
  const sellerBottom = pdf.y;
  pdf
    .font(bold)
    .fontSize(20)
    .text(title, left + width - 200, top, { width: 200, align: 'right' });
  pdf.font(regular).fontSize(10).text(`No. ${number}`, { width: 200, align: 'right' });
  pdf.text(`Date: ${day(doc.issuedAt)}`, { width: 200, align: 'right' });
  pdf.y = Math.max(sellerBottom, pdf.y) + 20;

  if (doc.kind === DOCUMENT_KIND.creditNote) {
    const ref = doc.refersTo
      ? `for receipt ${documentNumber(DOCUMENT_KIND.receipt, doc.refersTo.number)} of ${day(doc.refersTo.issuedAt)}`
      : '';
    pdf.font(bold).fontSize(10).text(`Credit note ${ref}`.trim(), left, pdf.y, { width });
    pdf.moveDown(0.8);
  }

  pdf.font(bold).fontSize(10).text('Billed to', left, pdf.y, { width });
  pdf.font(regular).fontSize(10);
  for (const line of buyerLines(s.buyer)) pdf.text(t(line), { width });
  pdf.moveDown(1);

  pdf
    .font(bold)
    .fontSize(10)
    .text(t(`Order #${s.order.id}: ${s.order.title}`), left, pdf.y, { width });
  pdf
    .font(regular)
    .fontSize(9)
    .text(`Deadline: ${dayTime(new Date(s.order.deadline))}`, { width });
  pdf.moveDown(0.8);

  // The order's lines: description on the left, amount on the right.
  const row = (label: string, amount: string, font = regular) => {
    const y = pdf.y;
    pdf
      .font(font)
      .fontSize(10)
      .text(t(label), left, y, { width: width - 140 });
    const after = pdf.y;
    pdf.text(amount, amountX, y, { width: 120, align: 'right' });
    pdf.y = Math.max(after, pdf.y) + 4;
  };
  const rule = () => {
    pdf
      .moveTo(left, pdf.y)
      .lineTo(left + width, pdf.y)
      .lineWidth(0.5)
      .stroke();
    pdf.y += 6;
  };
  row('Description', 'Amount', bold);
  rule();
  for (const line of documentLines(s.order)) row(line.label, money(line.cents, s.money.currency));
  rule();
  row('Order total', money(s.order.finalPriceCents, s.money.currency), bold);
  pdf.moveDown(1);

  const paid = doc.kind === DOCUMENT_KIND.receipt;
  row(paid ? 'Amount paid' : 'Amount refunded', money(paid ? s.money.amountCents : -s.money.amountCents, s.money.currency), bold);
  pdf.font(regular).fontSize(9);
  const via = `${paid ? 'Paid with' : 'Refunded to'} ${MONEY_PROVIDER_NAME[s.money.provider]} on ${dayTime(new Date(s.money.date))}`;
  pdf.text(t(s.money.reference ? `${via} (reference ${s.money.reference})` : via), left, pdf.y, { width });
  if (s.money.sandbox) pdf.text('Sandbox payment: no money moved.', { width });
  pdf.moveDown(2);
  pdf
    .fontSize(8)
    .fillColor('#555555')
    .text(`This ${title.toLowerCase()} was issued electronically and is valid without a signature.`, left, pdf.y, { width });
  pdf.end();
  return done;
};
