import type { z } from 'zod';
import type { FieldErrors } from '../errors/index';
import { amountToCents } from '../money/index';
import { levelFieldForCategory, SITE_CATEGORY } from '../settings/index';
import type { PriceDiscount, PriceInput } from '../pricing/index';
import { stripHtml } from '../text/index';
import {
  applyFormDependencies,
  defaultOrderForm,
  levelOf,
  normalizeTitle,
  ORDER_FORM_LIMITS,
  ORDER_FORM_MESSAGE,
  pagesMaxFor,
  type Spacing,
} from './rules/index';
import type { orderBodySchema } from './order-body';
import type { priceCalcBodySchema } from './wire';

/**
 * The server's second look at a submitted order (ADR 0012): every rule the wizard applies, run again on
 * the body, against the catalogues of the order's site category. Pure: the caller loads the lists.
 */
export type OrderBodyValues = z.output<typeof orderBodySchema>;
export type PriceCalcBodyValues = z.output<typeof priceCalcBodySchema>;

/** The ids a site category offers (catalogues of SPEC §7) and the site's urgencies. */
export interface OrderCatalogues {
  workTypes: readonly number[];
  /** the level list of the category's level field */
  levels: readonly number[];
  paperTypes: readonly number[];
  paperFormats: readonly number[];
  subjects: readonly number[];
  resumeServices: readonly number[];
  urgencies: readonly { id: number; hours: number }[];
}

/** A submitted order after the checks: clean text, dependencies applied, every id known. */
export interface CheckedOrder {
  siteCategory: number;
  workType: number;
  level: number;
  paperType: number;
  paperFormat: number | null;
  resumeService: number | null;
  subject: number;
  pages: number;
  sources: number;
  spacing: Spacing;
  title: string;
  description: string;
  credentials: string;
  /** hours */
  urgency: number;
  premiumWriter: boolean;
  extraQualityCheck: boolean;
  onePageSummary: boolean;
  originalityReport: boolean;
  preferredWriters: number[];
  preferredWriterAnother: boolean;
  /** HTML-stripped and trimmed; '' when none */
  discountCode: string;
}

export const ORDER_CHECK_MESSAGE = {
  level: 'Choose a valid level',
  workType: 'Choose a valid work type',
  paperType: 'Choose a valid paper type',
  paperFormat: 'Choose a valid paper format',
  subject: 'Choose a valid subject',
  resumeService: 'Choose a valid resume service',
  urgency: 'Choose a valid deadline',
  urgencyLevel: 'This deadline is not available for the chosen level',
  pages: (max: number) => `At most ${max} pages`,
} as const;

export type OrderCheckResult = { ok: true; order: CheckedOrder } | { ok: false; errors: FieldErrors };

const onOff = (value: 1 | 2): boolean => value === 2;

/**
 * SPEC §5 step 1, §4 "Form dependencies", CONTRACT "Orders and catalogues": level field per category,
 * ids from the category's catalogues, urgency among the site's, HTML stripped, title normalised
 * (Writer's Choice), details empty or at least 10 characters. Errors are keyed by wire field names.
 */
export const checkOrderSubmission = (
  body: OrderBodyValues,
  ctx: { siteCategory: number; catalogues: OrderCatalogues },
): OrderCheckResult => {
  const { siteCategory, catalogues } = ctx;
  const errors: FieldErrors = {};
  const fail = (field: string, message: string) => {
    (errors[field] ??= []).push(message);
  };
  const resume = siteCategory === SITE_CATEGORY.resume;
  const defaults = defaultOrderForm(siteCategory);

  const level = levelOf(body, siteCategory);
  if (level === undefined || !catalogues.levels.includes(level)) fail(levelFieldForCategory(siteCategory), ORDER_CHECK_MESSAGE.level);
  if (!catalogues.workTypes.includes(body.idWorkType)) fail('idWorkType', ORDER_CHECK_MESSAGE.workType);
  const pagesMax = pagesMaxFor(siteCategory);
  if (body.pages > pagesMax) fail('pages', ORDER_CHECK_MESSAGE.pages(pagesMax));

  // The title rule keeps at most 250 characters; a longer one is refused rather than cut (SPEC §8 topic error).
  const rawTitle = stripHtml(body.topic).trim();
  if (!resume && rawTitle.length > ORDER_FORM_LIMITS.titleMax) fail('topic', ORDER_FORM_MESSAGE.invalidTitle);
  const description = stripHtml(body.paperDetails).trim();
  if (description.length > 0 && description.length < ORDER_FORM_LIMITS.detailsMin) fail('paperDetails', ORDER_FORM_MESSAGE.invalidDetails);

  const { values, disabled } = applyFormDependencies(
    {
      ...defaults,
      workType: body.idWorkType,
      level: level ?? defaults.level,
      paperFormat: body.paperFormat ?? defaults.paperFormat,
      paperType: body.paperType ?? defaults.paperType,
      resumeService: body.resumeService ?? null,
      subject: body.subject === 0 ? null : (body.subject ?? null),
      pages: body.pages,
      sources: body.sources,
      spacing: body.idSpacing,
      title: body.topic,
      details: description,
      credentials: body.credentials,
      urgency: body.urgency,
      premiumWriter: onOff(body.premiumWriter),
      preferredWriters: body.preferredWriterList,
      anotherWriter: body.preferredWriterAnother,
      extraQualityCheck: onOff(body.extraQualityCheck),
      originalityReport: onOff(body.originalityReport),
      onePageSummary: onOff(body.onePageSummary),
    },
    { siteCategory },
  );

  if (!catalogues.paperTypes.includes(values.paperType)) fail('paperType', ORDER_CHECK_MESSAGE.paperType);
  // Resumes have no citation style: a resume order stores none unless one is sent.
  const paperFormat = resume && (body.paperFormat === null || body.paperFormat === undefined) ? null : values.paperFormat;
  if (paperFormat !== null && !catalogues.paperFormats.includes(paperFormat)) fail('paperFormat', ORDER_CHECK_MESSAGE.paperFormat);
  if (values.subject === null) fail('subject', ORDER_FORM_MESSAGE.subjectRequired);
  else if (!catalogues.subjects.includes(values.subject)) fail('subject', ORDER_CHECK_MESSAGE.subject);
  const resumeService = resume ? values.resumeService : null;
  if (resume && (resumeService === null || !catalogues.resumeServices.includes(resumeService))) {
    fail('resumeService', ORDER_CHECK_MESSAGE.resumeService);
  }
  const urgency = catalogues.urgencies.find((u) => u.hours === values.urgency);
  if (!urgency) fail('urgency', ORDER_CHECK_MESSAGE.urgency);
  else if (disabled.urgencyOptionIds.includes(urgency.id)) fail('urgency', ORDER_CHECK_MESSAGE.urgencyLevel);

  if (Object.keys(errors).length > 0 || level === undefined || values.subject === null) return { ok: false, errors };
  return {
    ok: true,
    order: {
      siteCategory,
      workType: values.workType,
      level,
      paperType: values.paperType,
      paperFormat,
      resumeService,
      subject: values.subject,
      pages: values.pages,
      sources: values.sources,
      spacing: values.spacing,
      title: normalizeTitle(body.topic, siteCategory).title,
      description,
      credentials: stripHtml(body.credentials).trim(),
      urgency: values.urgency,
      premiumWriter: values.premiumWriter,
      extraQualityCheck: values.extraQualityCheck,
      onePageSummary: values.onePageSummary,
      originalityReport: values.originalityReport,
      preferredWriters: [...new Set(values.preferredWriters)],
      preferredWriterAnother: values.anotherWriter,
      discountCode: stripHtml(body.discountCode).trim(),
    },
  };
};

/**
 * The price inputs of an order. SPEC §4: preferred writers are priced apart from the premium writer;
 * the preferred-writer extra applies when the customer names at least one writer.
 */
export const priceInputForOrder = (order: CheckedOrder, discount?: PriceDiscount): PriceInput => ({
  workType: order.workType,
  level: order.level,
  urgency: order.urgency,
  pages: order.pages,
  spacing: order.spacing,
  premiumWriter: order.premiumWriter,
  preferredWriter: order.preferredWriters.length > 0,
  extraQualityCheck: order.extraQualityCheck,
  originalityReport: order.originalityReport,
  onePageSummary: order.onePageSummary,
  discount,
});

/** The price inputs of a `PUT …/calcs` body (SPEC §7); undefined when the category's level field is missing. */
export const priceInputForCalcBody = (body: PriceCalcBodyValues, siteCategory: number): PriceInput | undefined => {
  const level = levelOf(body, siteCategory);
  if (level === undefined) return undefined;
  return {
    workType: body.idWorkType,
    level,
    urgency: body.urgency,
    pages: body.pages,
    spacing: body.idSpacing,
    premiumWriter: onOff(body.premiumWriter),
    preferredWriter: body.preferredWriterList.length > 0,
    extraQualityCheck: onOff(body.extraQualityCheck),
    originalityReport: onOff(body.originalityReport),
    onePageSummary: onOff(body.onePageSummary),
    discount: { percent: body.discountPercent, amount: amountToCents(body.discountAmount) },
  };
};
