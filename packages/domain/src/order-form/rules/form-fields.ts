// The zod-free half of the order-form context: the wizard's first step imports only this (ADR 0020, 0025).
import { levelFieldForCategory, SITE_CATEGORY } from '../../settings/rules/index';
import type { OrderBody } from '../order-body';
import type { PriceCalcBody } from '../wire';
import type { PriceDiscount, PriceInput } from '../../pricing/index';
import { PRESENTATION_PAPER_TYPE, RESUME_DEFAULT_PAPER_TYPE, WORK_TYPE, WORDS_PER_PAGE } from '../../order/rules/index';
import { stripHtml } from '../../text/index';
import { ORDER_TEXT_LIMITS, ORDER_TEXT_MESSAGE } from './text-limits';
import {
  DEFAULT_URGENCY_HOURS,
  HIGH_ACADEMIC_LEVEL_IDS,
  RESUME_DEFAULT_URGENCY_HOURS,
  URGENCY_IDS_DISABLED_AT_HIGH_LEVELS,
  URGENCY_MIN_HOURS,
} from '../../catalogue/rules/index';
import type { OrderFormValues, Spacing } from './values';

/**
 * The order form's rules (SPEC §4 "Order form steps", "Form dependencies"; §5 step 1 and checkout;
 * §9 constants). The wizard binds to these; the server runs the same validation again.
 */
export const ORDER_FORM_LIMITS = {
  titleMin: 5,
  ...ORDER_TEXT_LIMITS,
  detailsMin: 10,
  pagesMin: 1,
  pagesMax: 100,
  resumePagesMax: 10,
  sourcesMin: 0,
  sourcesMax: 100,
  urgencyMinHours: URGENCY_MIN_HOURS,
  /** below this the extra quality check is off and disabled */
  extraQualityCheckMinHours: 24,
  checkoutPhoneMinDigits: 6,
} as const;
export const WRITERS_CHOICE_TITLE = "Writer's Choice";

export const ORDER_FORM_MESSAGE = {
  writersChoice: 'We will leave the "Title" choice to writer',
  detailsMin: 'Min: 10 characters',
  detailsOrFiles: 'Fill out either "Paper Details" or "File(s)" field',
  subjectRequired: 'Choose the required "Subject"',
  fileRequired: 'Please attach a file: editing and proofreading needs your document',
  termsRequired: 'Please accept the Terms of Use, Privacy Cookies Policy',
  invalidPhone: 'You may have entered invalid phone number. Kindly consider revising.',
  invalidEmail: 'Invalid email address.',
  passwordRequired: 'The "Password" field is mandatory.',
  volumeWarning: 'You are about to place an order that will be tough to complete due to its volume',
  volumeAdvice: 'Please consider extending the deadline',
  emptyDiscount: 'Please enter your discount',
  topWriterDiscount: 'Please enable Top Writer feature to use this discount',
  discountApplied: 'Your discount has been successfully applied',
  ...ORDER_TEXT_MESSAGE,
  invalidDetails: 'Paper Details must be empty or contain at least 10 characters',
  orderCreating: 'Your order is now being created',
  orderUpdating: 'Your order is now being updated',
  editingTooltip: 'Up to 30% of the content may be rewritten',
  premiumWriterTooltip: 'One of our 10 top specialists in your subject',
  /** the note beside the extra quality check when the deadline is too short for it */
  extraQualityCheckUnavailable: `Available for deadlines of ${ORDER_FORM_LIMITS.extraQualityCheckMinHours} hours or more`,
  /** why a greyed-out deadline cannot be chosen (SPEC §4: level 4 or 5 disables urgency options 3 and 6) */
  urgencyUnavailableAtLevel: 'Not available at this level: too short for the depth it needs',
  /** why spacing cannot be changed (SPEC §4: a presentation is double-spaced) */
  spacingFixedForPresentation: 'Presentations are always double-spaced',
  /** why the one-page summary cannot be ticked (SPEC §4: not with a presentation) */
  onePageSummaryUnavailable: 'Not available for presentations',
} as const;

/** SPEC §9 "Order defaults" and "Default urgency". */
export const defaultOrderForm = (siteCategory: number): OrderFormValues => {
  const resume = siteCategory === SITE_CATEGORY.resume;
  return {
    workType: WORK_TYPE.writing,
    level: 1,
    paperFormat: 1,
    paperType: resume ? RESUME_DEFAULT_PAPER_TYPE : 1,
    resumeService: null,
    subject: null,
    pages: 1,
    sources: 0,
    spacing: 2,
    title: '',
    details: '',
    credentials: '',
    urgency: resume ? RESUME_DEFAULT_URGENCY_HOURS : DEFAULT_URGENCY_HOURS,
    premiumWriter: false,
    preferredWriters: [],
    anotherWriter: false,
    extraQualityCheck: false,
    originalityReport: false,
    onePageSummary: false,
    discountCode: '',
  };
};

export const pagesMaxFor = (siteCategory: number, sitePagesMax?: number): number =>
  siteCategory === SITE_CATEGORY.resume ? ORDER_FORM_LIMITS.resumePagesMax : (sitePagesMax ?? ORDER_FORM_LIMITS.pagesMax);

export interface FormDependencies {
  values: OrderFormValues;
  disabled: {
    extraQualityCheck: boolean;
    spacing: boolean;
    onePageSummary: boolean;
    /** urgency option ids that cannot be chosen */
    urgencyOptionIds: number[];
  };
  pagesLabel: 'pages' | 'slides';
  fileRequired: boolean;
}

/** Clamps a number field; an empty or invalid value resets to its minimum (SPEC §5). */
export const clampNumber = (value: unknown, min: number, max: number): number => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  if (!Number.isFinite(n)) return min;
  return Math.min(Math.max(Math.trunc(n), min), max);
};

/**
 * Applies SPEC §4 "Form dependencies" to a set of values. `previousWorkType` lets paper type 17
 * revert to 1 when the work type moves away from presentation.
 */
export const applyFormDependencies = (
  input: OrderFormValues,
  ctx: { siteCategory: number; previousWorkType?: number; sitePagesMax?: number },
): FormDependencies => {
  const values = { ...input };
  const presentation = values.workType === WORK_TYPE.presentation;
  values.pages = clampNumber(values.pages, ORDER_FORM_LIMITS.pagesMin, pagesMaxFor(ctx.siteCategory, ctx.sitePagesMax));
  values.sources = clampNumber(values.sources, ORDER_FORM_LIMITS.sourcesMin, ORDER_FORM_LIMITS.sourcesMax);
  // SPEC §4: an urgency value below 12 is raised to 12.
  if (!Number.isFinite(values.urgency) || values.urgency < ORDER_FORM_LIMITS.urgencyMinHours) {
    values.urgency = ORDER_FORM_LIMITS.urgencyMinHours;
  }
  // SPEC §4: urgency under 24 hours forces extra quality check off and disables it.
  const qualityCheckDisabled = values.urgency < ORDER_FORM_LIMITS.extraQualityCheckMinHours;
  if (qualityCheckDisabled) values.extraQualityCheck = false;
  if (presentation) {
    // SPEC §4: presentation fixes paper type 17, double spacing, and no one-page summary.
    values.paperType = PRESENTATION_PAPER_TYPE;
    values.spacing = 2;
    values.onePageSummary = false;
  } else if (values.paperType === PRESENTATION_PAPER_TYPE && ctx.previousWorkType === WORK_TYPE.presentation) {
    values.paperType = 1;
  }
  const highLevel = HIGH_ACADEMIC_LEVEL_IDS.includes(values.level);
  return {
    values,
    disabled: {
      extraQualityCheck: qualityCheckDisabled,
      spacing: presentation,
      onePageSummary: presentation,
      urgencyOptionIds: highLevel ? [...URGENCY_IDS_DISABLED_AT_HIGH_LEVELS] : [],
    },
    pagesLabel: presentation ? 'slides' : 'pages',
    fileRequired: values.workType === WORK_TYPE.editing,
  };
};

/** Words the pages hold: 300 a page double spaced, twice that single spaced (SPEC §3). */
export const wordsFor = (pages: number, spacing: Spacing): number => pages * WORDS_PER_PAGE * (spacing === 1 ? 2 : 1);

export interface TitleResult {
  title: string;
  warning: string | null;
}
/**
 * SPEC §5: a title shorter than 5 characters becomes 'Writer's Choice' with a warning; for resumes the
 * title is cleared and not required. HTML is stripped first.
 */
export const normalizeTitle = (raw: string, siteCategory: number): TitleResult => {
  if (siteCategory === SITE_CATEGORY.resume) return { title: '', warning: null };
  const title = stripHtml(raw).trim().slice(0, ORDER_FORM_LIMITS.titleMax);
  if (title.length < ORDER_FORM_LIMITS.titleMin) return { title: WRITERS_CHOICE_TITLE, warning: ORDER_FORM_MESSAGE.writersChoice };
  return { title, warning: null };
};

export type OrderFieldErrors = Partial<Record<'title' | 'details' | 'files' | 'subject' | 'pages' | 'sources', string>>;

/** A subject is an id of the list (never 0: a select's empty choice is no subject). */
const hasSubject = (values: Pick<OrderFormValues, 'subject'>): boolean => values.subject !== null && values.subject > 0;

/** SPEC §5 "Order form, step 1" (details, files, subject). */
export const validateOrderDetails = (
  values: Pick<OrderFormValues, 'details' | 'subject' | 'workType'>,
  ctx: { fileCount: number },
): OrderFieldErrors => {
  const errors: OrderFieldErrors = {};
  const details = stripHtml(values.details).trim();
  if (values.workType === WORK_TYPE.editing && ctx.fileCount === 0) errors.files = ORDER_FORM_MESSAGE.fileRequired;
  if (details.length > 0 && details.length < ORDER_FORM_LIMITS.detailsMin && ctx.fileCount === 0) {
    errors.details = ORDER_FORM_MESSAGE.detailsMin;
  } else if (details.length === 0 && ctx.fileCount === 0 && !errors.files) {
    errors.details = ORDER_FORM_MESSAGE.detailsOrFiles;
  }
  if (!hasSubject(values)) errors.subject = ORDER_FORM_MESSAGE.subjectRequired;
  return errors;
};

/** SPEC §4 "Order form steps". */
export const isSubjectStepComplete = (values: Pick<OrderFormValues, 'subject'>): boolean => hasSubject(values);
export const isDetailsStepComplete = (
  values: Pick<OrderFormValues, 'details' | 'subject' | 'workType'>,
  ctx: { fileCount: number; filesValid: boolean },
): boolean => {
  const { subject: _subject, ...errors } = validateOrderDetails(values, ctx);
  return Object.keys(errors).length === 0 && ctx.filesValid;
};

/**
 * SPEC §5 "Volume warning": pages per day of deadline at least 1 (0.5 for single spacing; resumes
 * always at 1).
 */
export const showsVolumeWarning = (values: Pick<OrderFormValues, 'pages' | 'urgency' | 'spacing'>, siteCategory: number): boolean => {
  const days = values.urgency / 24;
  if (days <= 0) return true;
  const ratio = values.pages / days;
  const threshold = siteCategory !== SITE_CATEGORY.resume && values.spacing === 1 ? 0.5 : 1;
  return ratio >= threshold;
};

const flag = (on: boolean): 1 | 2 => (on ? 2 : 1);

/** The wizard's values as the SPEC §7 create/update body. */
export const toOrderBody = (values: OrderFormValues, siteCategory: number): OrderBody => ({
  idWorkType: values.workType,
  [levelFieldForCategory(siteCategory)]: values.level,
  paperFormat: values.paperFormat,
  paperType: values.paperType,
  resumeService: values.resumeService,
  subject: values.subject,
  discountCode: values.discountCode,
  pages: values.pages,
  sources: values.sources,
  idSpacing: values.spacing,
  // SPEC §5: a title under 5 characters is sent as 'Writer's Choice'; the field keeps what was typed. Any
  // other title goes as typed: the server's checks (length, HTML) answer for it, nothing is cut here.
  topic:
    siteCategory !== SITE_CATEGORY.resume && normalizeTitle(values.title, siteCategory).title === WRITERS_CHOICE_TITLE
      ? WRITERS_CHOICE_TITLE
      : values.title,
  paperDetails: values.details,
  credentials: values.credentials,
  urgency: values.urgency,
  premiumWriter: flag(values.premiumWriter),
  preferredWriterList: values.preferredWriters,
  preferredWriterAnother: values.anotherWriter,
  originalityReport: flag(values.originalityReport),
  extraQualityCheck: flag(values.extraQualityCheck),
  onePageSummary: flag(values.onePageSummary),
  premiumSupport: false,
});

/** The level of a body, read from the field its site category uses. */
export const levelOf = (
  body: { academicLevel?: number | undefined; resumeLevel?: number | undefined; thesisLevel?: number | undefined },
  siteCategory: number,
): number | undefined => body[levelFieldForCategory(siteCategory)];

/** The price inputs of the wizard's values (SPEC §3 "Price"; §4: preferred writers priced apart from premium). */
export const priceInputForForm = (values: OrderFormValues, discount?: PriceDiscount): PriceInput => ({
  workType: values.workType,
  level: values.level,
  urgency: values.urgency,
  pages: values.pages,
  spacing: values.spacing,
  premiumWriter: values.premiumWriter,
  preferredWriter: values.preferredWriters.length > 0,
  extraQualityCheck: values.extraQualityCheck,
  originalityReport: values.originalityReport,
  onePageSummary: values.onePageSummary,
  discount,
});

/**
 * The wizard's values as the SPEC §7 `PUT …/calcs` body, with the applied discount (amount in USD,
 * whole percent). Key order is fixed, so `JSON.stringify` of two equal bodies is equal (a query key).
 */
export const toPriceCalcBody = (
  values: OrderFormValues,
  siteCategory: number,
  discount?: { percent: number; amount: number } | null,
): PriceCalcBody => ({
  idWorkType: values.workType,
  [levelFieldForCategory(siteCategory)]: values.level,
  discountAmount: discount?.amount ?? 0,
  discountPercent: discount?.percent ?? 0,
  pages: values.pages,
  idSpacing: values.spacing,
  urgency: values.urgency,
  premiumWriter: flag(values.premiumWriter),
  preferredWriterList: values.preferredWriters,
  preferredWriterAnother: values.anotherWriter,
  originalityReport: flag(values.originalityReport),
  extraQualityCheck: flag(values.extraQualityCheck),
  onePageSummary: flag(values.onePageSummary),
});

/** SPEC §8 "Order creation failure": the field to focus (when one) and the message to show. */
export const orderCreationFailure = (
  fieldErrors: Record<string, string[] | undefined>,
): { field: 'discountCode' | 'title' | 'details' | null; message: string } => {
  const discount = fieldErrors.discountCode?.[0];
  if (discount) return { field: 'discountCode', message: discount };
  if (fieldErrors.topic?.length) return { field: 'title', message: ORDER_FORM_MESSAGE.invalidTitle };
  if (fieldErrors.paperDetails?.length) return { field: 'details', message: ORDER_FORM_MESSAGE.invalidDetails };
  return { field: null, message: 'Something went wrong' };
};
