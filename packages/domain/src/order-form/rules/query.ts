import type { OrderDetail } from '../../order/detail';
import type { OrderFormValues, Spacing } from './values';

/**
 * SPEC §2 "Any order-form field name, which prefills it": the query names and the form field each fills.
 * Extras follow the wire (1 off, 2 on; `true`/`false` are read too); `preferredList` is comma-separated ids.
 */
type NumberField = 'workType' | 'level' | 'paperFormat' | 'paperType' | 'resumeService' | 'subject' | 'pages' | 'sources' | 'urgency';
type FlagField = 'premiumWriter' | 'anotherWriter' | 'extraQualityCheck' | 'onePageSummary' | 'originalityReport';
type TextField = 'title' | 'details' | 'credentials' | 'discountCode';

const NUMBER_PARAMS: Record<string, NumberField> = {
  workType: 'workType',
  level: 'level',
  paperFormat: 'paperFormat',
  paperType: 'paperType',
  resumeService: 'resumeService',
  subject: 'subject',
  pages: 'pages',
  sources: 'sources',
  urgency: 'urgency',
};
const FLAG_PARAMS: Record<string, FlagField> = {
  topWriters: 'premiumWriter',
  anotherWriter: 'anotherWriter',
  extraqualityCheck: 'extraQualityCheck',
  onePageSummary: 'onePageSummary',
  qualityFeature: 'originalityReport',
};
const TEXT_PARAMS: Record<string, TextField> = {
  topic: 'title',
  description: 'details',
  credentials: 'credentials',
  discountCode: 'discountCode',
  // SPEC §2 "discount or discountCode"
  discount: 'discountCode',
};

const parseFlag = (raw: string): boolean | undefined => {
  const v = raw.trim().toLowerCase();
  if (v === '2' || v === 'true') return true;
  if (v === '1' || v === '0' || v === 'false') return false;
  return undefined;
};

/** The form values a query string names; unknown names and unreadable values are left out. */
export const orderFormFromQuery = (params: Iterable<[string, string]>): Partial<OrderFormValues> => {
  const out: Partial<OrderFormValues> = {};
  const assign = <K extends keyof OrderFormValues>(key: K, value: OrderFormValues[K]) => {
    out[key] = value;
  };
  for (const [name, raw] of params) {
    const numberField = NUMBER_PARAMS[name];
    if (numberField) {
      const n = Number(raw);
      if (raw.trim() !== '' && Number.isInteger(n) && n >= 0) assign(numberField, n);
      continue;
    }
    const flagField = FLAG_PARAMS[name];
    if (flagField) {
      const flag = parseFlag(raw);
      if (flag !== undefined) assign(flagField, flag);
      continue;
    }
    const textField = TEXT_PARAMS[name];
    if (textField) {
      assign(textField, raw);
      continue;
    }
    if (name === 'id_spacing' && (raw === '1' || raw === '2')) assign('spacing', Number(raw) as Spacing);
    if (name === 'preferredList') {
      const ids = raw
        .split(',')
        .map((part) => Number(part))
        .filter((n) => Number.isInteger(n) && n > 0);
      assign('preferredWriters', [...new Set(ids)]);
    }
  }
  return out;
};

/** The form values of a stored order, for `?editingOrderId=` and `?cloningOrder=` (SPEC §2). */
export const orderFormFromOrder = (order: OrderDetail): Partial<OrderFormValues> => {
  const level = order.academicLevel ?? order.resumeLevel ?? order.thesisLevel;
  const out: Partial<OrderFormValues> = {
    workType: order.workType.id,
    pages: order.pages,
    sources: order.sources,
    spacing: order.paragraphSpacing,
    title: order.title,
    details: order.description,
    credentials: order.credentials,
    urgency: order.urgency,
    premiumWriter: order.features.premiumWriter === 2,
    extraQualityCheck: order.features.extraQualityCheck === 2,
    onePageSummary: order.features.onePageSummary === 2,
    originalityReport: order.features.originalityReport === 2,
    preferredWriters: order.preferredWritersList,
    anotherWriter: order.preferredWriterAnother,
    subject: order.subject?.id ?? null,
    resumeService: order.resumeService?.id ?? null,
    discountCode: order.discount?.code ?? '',
  };
  if (level) out.level = level.id;
  if (order.assignment) out.paperType = order.assignment.id;
  if (order.paperFormat) out.paperFormat = order.paperFormat.id;
  return out;
};
