import type { Cents } from '../../money/cents';
import type { MoneyProvider } from '../../payment/checkout';

/**
 * Issue 24, ADR 0085: every settled payment has a receipt and every refund a credit note. Each kind is
 * numbered without gaps (R-000001, R-000002, …; CN-000001, …): the number is taken from a counter row in
 * the transaction that writes the money, so a rolled-back payment takes no number.
 */
export const DOCUMENT_KIND = { receipt: 'receipt', creditNote: 'credit_note' } as const;
export type DocumentKind = (typeof DOCUMENT_KIND)[keyof typeof DOCUMENT_KIND];

const DOCUMENT_PREFIX: Record<DocumentKind, string> = { receipt: 'R', credit_note: 'CN' };
export const DOCUMENT_TITLE: Record<DocumentKind, string> = { receipt: 'Receipt', credit_note: 'Credit note' };

/** `R-000042`, `CN-000007`: six digits at least, more when the counter passes 999999. */
export const documentNumber = (kind: DocumentKind, n: number): string => `${DOCUMENT_PREFIX[kind]}-${String(n).padStart(6, '0')}`;

/** The file name of a document's PDF (the download and the year's ZIP), from its counter or its printed number. */
export const documentFileName = (kind: DocumentKind, n: number | string): string =>
  `${kind === DOCUMENT_KIND.receipt ? 'receipt' : 'credit-note'}-${typeof n === 'number' ? documentNumber(kind, n) : n}.pdf`;

/** The buyer's billing details kept on the profile and printed on the documents (CONTRACT "After payment"). */
export interface BillingDetails {
  name: string;
  company: string;
  taxId: string;
  address: string;
}
export const BILLING_LIMITS = { name: 100, company: 100, taxId: 50, address: 250 } as const satisfies Record<keyof BillingDetails, number>;
export const EMPTY_BILLING: BillingDetails = { name: '', company: '', taxId: '', address: '' };

/** The operator's details (SELLER_NAME, SELLER_ADDRESS, SELLER_TAX_ID, SELLER_EMAIL) as printed at issue time. */
export interface SellerDetails {
  name: string;
  address: string;
  taxId: string;
  email: string;
}

/** The order as it was when the money moved: what the document lists. */
export interface DocumentOrder {
  id: number;
  uid: string;
  title: string;
  workType: string | null;
  paperType: string | null;
  level: string | null;
  pages: number;
  /** 1 single, 2 double spaced. */
  spacing: number;
  urgencyHours: number;
  /** ISO 8601. */
  deadline: string;
  basicPriceCents: Cents;
  /** The price breakdown recorded on the order (cents; absent parts are 0). */
  extras: {
    premiumWriterCents: Cents;
    preferredWriterCents: Cents;
    extraQualityCheckCents: Cents;
    originalityReportCents: Cents;
    onePageSummaryCents: Cents;
  };
  discountCode: string | null;
  discountCents: Cents;
  finalPriceCents: Cents;
}

/**
 * What a document says, frozen when it is issued (ADR 0085): later changes to the profile, the order or
 * the settings never change an issued document. The PDF is drawn from it on request, the same bytes each time.
 */
export interface DocumentSnapshot {
  version: 1;
  seller: SellerDetails;
  buyer: BillingDetails & { email: string };
  order: DocumentOrder;
  money: {
    provider: MoneyProvider;
    amountCents: Cents;
    currency: string;
    /** ISO 8601: when the payment settled or the refund was written. */
    date: string;
    /** The provider's payment id, when there is one. */
    reference: string | null;
    sandbox: boolean;
  };
}

export interface DocumentLine {
  label: string;
  cents: Cents;
}

const urgencyLabel = (hours: number): string =>
  hours >= 24 && hours % 24 === 0 ? `${hours / 24} day${hours === 24 ? '' : 's'}` : `${hours} hour${hours === 1 ? '' : 's'}`;

/** The order's lines as a document lists them: the work, each extra taken, the discount (negative). */
export const documentLines = (order: DocumentOrder): DocumentLine[] => {
  const work = [
    order.workType ?? 'Writing',
    order.paperType,
    order.level,
    `${order.pages} page${order.pages === 1 ? '' : 's'}, ${order.spacing === 1 ? 'single' : 'double'} spaced`,
    `${urgencyLabel(order.urgencyHours)}`,
  ]
    .filter((part): part is string => Boolean(part))
    .join(' · ');
  const lines: DocumentLine[] = [{ label: work, cents: order.basicPriceCents }];
  const extras: [string, Cents][] = [
    ['Premium writer', order.extras.premiumWriterCents],
    ['Preferred writer', order.extras.preferredWriterCents],
    ['Extra quality check', order.extras.extraQualityCheckCents],
    ['Originality report', order.extras.originalityReportCents],
    ['One-page summary', order.extras.onePageSummaryCents],
  ];
  for (const [label, cents] of extras) if (cents > 0) lines.push({ label, cents });
  if (order.discountCents > 0)
    lines.push({ label: order.discountCode ? `Discount (${order.discountCode})` : 'Discount', cents: -order.discountCents });
  return lines;
};

/** The buyer's name and address as printed: the billing details, else the profile's name and address. */
export const buyerLines = (buyer: DocumentSnapshot['buyer']): string[] =>
  [buyer.name, buyer.company, buyer.address, buyer.taxId ? `Tax ID: ${buyer.taxId}` : '', buyer.email]
    .flatMap((v) => v.split('\n'))
    .map((v) => v.trim())
    .filter(Boolean);

export const RECEIPTS_MESSAGE = {
  noneInYear: (year: number) => `You have no receipts or credit notes in ${year}`,
} as const;

/** The years a ZIP may be asked for (the query's bounds). */
export const RECEIPT_YEARS = { min: 2000, max: 2100 } as const;
