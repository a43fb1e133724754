import { describe, expect, it } from 'vitest';
import { AUTH_MESSAGE } from '../auth/index';
import {
  applyFormDependencies,
  clampNumber,
  defaultOrderForm,
  isDetailsStepComplete,
  isSubjectStepComplete,
  normalizeTitle,
  ORDER_FORM_MESSAGE,
  showsVolumeWarning,
  splitCheckoutName,
  USER_TYPE,
  validateCheckout,
  validateOrderDetails,
  wordsFor,
  type OrderFormValues,
} from './index';

const essay = (patch: Partial<OrderFormValues> = {}): OrderFormValues => ({ ...defaultOrderForm(1), ...patch });
const deps = (patch: Partial<OrderFormValues>, ctx: { siteCategory?: number; previousWorkType?: number } = {}) =>
  applyFormDependencies(essay(patch), {
    siteCategory: ctx.siteCategory ?? 1,
    ...(ctx.previousWorkType ? { previousWorkType: ctx.previousWorkType } : {}),
  });

describe('order defaults (SPEC §9)', () => {
  it('starts with work type 1, level 1, format 1, type 1, 1 page, double spacing, 0 sources, 240 hours', () => {
    expect(defaultOrderForm(1)).toMatchObject({
      workType: 1,
      level: 1,
      paperFormat: 1,
      paperType: 1,
      pages: 1,
      spacing: 2,
      sources: 0,
      urgency: 240,
    });
  });
  it('gives resumes 120 hours and paper type 71', () => {
    expect(defaultOrderForm(3)).toMatchObject({ urgency: 120, paperType: 71 });
  });
});

describe('urgency under 24 hours forces extra quality check off and disables it (SPEC §4)', () => {
  it('turns it off at 12 hours', () => {
    const r = deps({ urgency: 12, extraQualityCheck: true });
    expect(r.values.extraQualityCheck).toBe(false);
    expect(r.disabled.extraQualityCheck).toBe(true);
  });
  it('leaves it alone at 24 hours', () => {
    const r = deps({ urgency: 24, extraQualityCheck: true });
    expect(r.values.extraQualityCheck).toBe(true);
    expect(r.disabled.extraQualityCheck).toBe(false);
  });
});

describe('raises urgency below 12 to 12 (SPEC §4)', () => {
  it.each([0, 6, 11, Number.NaN])('raises %d', (urgency) => {
    expect(deps({ urgency }).values.urgency).toBe(12);
  });
});

describe('presentation (work type 3) fixes paper type 17, double spacing, no summary, slides (SPEC §4)', () => {
  it('applies every part of the rule', () => {
    const r = deps({ workType: 3, spacing: 1, onePageSummary: true, paperType: 4 });
    expect(r.values).toMatchObject({ paperType: 17, spacing: 2, onePageSummary: false });
    expect(r.disabled).toMatchObject({ spacing: true, onePageSummary: true });
    expect(r.pagesLabel).toBe('slides');
  });
  it('reverts paper type 17 to 1 when the work type changes', () => {
    expect(deps({ workType: 1, paperType: 17 }, { previousWorkType: 3 }).values.paperType).toBe(1);
  });
  it('keeps a chosen paper type when the work type changes between others', () => {
    expect(deps({ workType: 2, paperType: 4 }, { previousWorkType: 1 }).values.paperType).toBe(4);
  });
});

describe('work type 2 (editing) makes file upload required (SPEC §4)', () => {
  it('flags the file as required', () => {
    expect(deps({ workType: 2 }).fileRequired).toBe(true);
    expect(deps({ workType: 1 }).fileRequired).toBe(false);
  });
  it('refuses an editing order without a file', () => {
    expect(validateOrderDetails({ workType: 2, details: 'Please edit my essay', subject: 1 }, { fileCount: 0 }).files).toBe(
      ORDER_FORM_MESSAGE.fileRequired,
    );
  });
});

describe('level 4 or 5 disables urgency options 3 and 6 (SPEC §4)', () => {
  it.each([4, 5])('level %i', (level) => {
    expect(deps({ level }).disabled.urgencyOptionIds).toEqual([3, 6]);
  });
  it.each([1, 2, 3])('not level %i', (level) => {
    expect(deps({ level }).disabled.urgencyOptionIds).toEqual([]);
  });
});

describe('pages 1 to 100, resume 10, sources 0 to 100; an empty number resets to its minimum (SPEC §5)', () => {
  it('clamps pages and sources', () => {
    expect(deps({ pages: 500, sources: 101 }).values).toMatchObject({ pages: 100, sources: 100 });
    expect(deps({ pages: 0, sources: -3 }).values).toMatchObject({ pages: 1, sources: 0 });
    expect(deps({ pages: 11 }, { siteCategory: 3 }).values.pages).toBe(10);
  });
  it.each([
    ['', 1],
    ['abc', 1],
    ['7', 7],
    [7.9, 7],
  ])('reads %s as %i', (value, expected) => {
    expect(clampNumber(value, 1, 100)).toBe(expected);
  });
});

describe('title (SPEC §5)', () => {
  it("becomes Writer's Choice with the warning when shorter than 5", () => {
    expect(normalizeTitle('Hi', 1)).toEqual({ title: "Writer's Choice", warning: 'We will leave the "Title" choice to writer' });
  });
  it('keeps a valid title, strips tags, cuts at 250', () => {
    expect(normalizeTitle('<b>Climate change</b>', 1)).toEqual({ title: 'Climate change', warning: null });
    expect(normalizeTitle('x'.repeat(300), 1).title).toHaveLength(250);
  });
  it('is cleared and not required for resumes', () => {
    expect(normalizeTitle('My resume', 3)).toEqual({ title: '', warning: null });
  });
});

describe('details or files (SPEC §5)', () => {
  it('asks for either when both are empty', () => {
    expect(validateOrderDetails({ workType: 1, details: '', subject: 1 }, { fileCount: 0 }).details).toBe(
      'Fill out either "Paper Details" or "File(s)" field',
    );
  });
  it('asks for 10 characters when details are short', () => {
    expect(validateOrderDetails({ workType: 1, details: 'short', subject: 1 }, { fileCount: 0 }).details).toBe('Min: 10 characters');
  });
  it('accepts files instead of details', () => {
    expect(validateOrderDetails({ workType: 1, details: '', subject: 1 }, { fileCount: 1 })).toEqual({});
  });
  it('needs a subject', () => {
    expect(validateOrderDetails({ workType: 1, details: 'Ten chars long', subject: null }, { fileCount: 0 }).subject).toBe(
      'Choose the required "Subject"',
    );
  });
});

describe('step completion (SPEC §4)', () => {
  it('completes step 1 once a subject is chosen', () => {
    expect(isSubjectStepComplete({ subject: null })).toBe(false);
    expect(isSubjectStepComplete({ subject: 3 })).toBe(true);
  });
  it("a subject of 0 (a select's empty choice) is no subject: step 1 stays open with its message", () => {
    expect(isSubjectStepComplete({ subject: 0 })).toBe(false);
    expect(validateOrderDetails({ workType: 1, details: 'Enough details here', subject: 0 }, { fileCount: 0 }).subject).toBe(
      ORDER_FORM_MESSAGE.subjectRequired,
    );
  });
  it('completes step 2 once details and files are valid', () => {
    expect(isDetailsStepComplete({ workType: 1, details: 'Enough details here', subject: 1 }, { fileCount: 0, filesValid: true })).toBe(
      true,
    );
    expect(isDetailsStepComplete({ workType: 1, details: 'Enough details here', subject: 1 }, { fileCount: 1, filesValid: false })).toBe(
      false,
    );
    expect(isDetailsStepComplete({ workType: 1, details: '', subject: 1 }, { fileCount: 0, filesValid: true })).toBe(false);
  });
});

describe('volume warning (SPEC §5)', () => {
  it('shows at a page a day or more', () => {
    expect(showsVolumeWarning({ pages: 10, urgency: 240, spacing: 2 }, 1)).toBe(true);
    expect(showsVolumeWarning({ pages: 9, urgency: 240, spacing: 2 }, 1)).toBe(false);
  });
  it('shows at half a page a day for single spacing', () => {
    expect(showsVolumeWarning({ pages: 5, urgency: 240, spacing: 1 }, 1)).toBe(true);
    expect(showsVolumeWarning({ pages: 4, urgency: 240, spacing: 1 }, 1)).toBe(false);
  });
  it('keeps 1 for resumes whatever the spacing', () => {
    expect(showsVolumeWarning({ pages: 5, urgency: 240, spacing: 1 }, 3)).toBe(false);
  });
});

describe('words shown beside pages (SPEC §3)', () => {
  it('counts 300 a page, double for single spacing', () => {
    expect(wordsFor(2, 2)).toBe(600);
    expect(wordsFor(2, 1)).toBe(1200);
  });
});

describe('checkout (SPEC §5)', () => {
  it('asks a new customer for terms, a phone of more than 5 digits and a valid email', () => {
    expect(validateCheckout({ userType: 11, email: 'bad', phone: '12345', terms: false })).toEqual({
      email: 'Invalid email address.',
      phone: 'You may have entered invalid phone number. Kindly consider revising.',
      terms: 'Please accept the Terms of Use, Privacy Cookies Policy',
    });
    expect(validateCheckout({ userType: 11, email: 'a@b.io', phone: '+1 (202) 555-0123', terms: true, isPhoneValid: true })).toEqual({});
  });
  it('refuses a phone the phone library calls invalid', () => {
    expect(validateCheckout({ userType: 11, email: 'a@b.io', phone: '1234567', terms: true, isPhoneValid: false }).phone).toBeDefined();
  });
  it('asks an existing customer for a password', () => {
    expect(validateCheckout({ userType: 22, email: 'a@b.io', password: '' })).toEqual({ password: 'The "Password" field is mandatory.' });
  });
});

describe('checkout name (SPEC §5 "Checkout")', () => {
  it('splits the one name field: the first word is the first name, the rest the last name', () => {
    expect(splitCheckoutName('  Ana   María  de la Cruz ')).toEqual({ firstName: 'Ana', lastName: 'María de la Cruz' });
    expect(splitCheckoutName('Cher')).toEqual({ firstName: 'Cher', lastName: '' });
    expect(splitCheckoutName('   ')).toEqual({ firstName: '', lastName: '' });
    expect(splitCheckoutName('  Grace   Brewster Hopper ')).toEqual({ firstName: 'Grace', lastName: 'Brewster Hopper' });
    expect(splitCheckoutName('')).toEqual({ firstName: '', lastName: '' });
  });

  it("refuses a new customer's name without a letter or with markup, and leaves an existing account's alone", () => {
    const base = { email: 'a@example.com', phone: '+1 202 555 0100', terms: true, isPhoneValid: true };
    expect(validateCheckout({ ...base, userType: USER_TYPE.newCustomer, name: 'Alex Morgan' }).name).toBeUndefined();
    expect(validateCheckout({ ...base, userType: USER_TYPE.newCustomer, name: '12345' }).name).toBe(AUTH_MESSAGE.invalidName);
    expect(validateCheckout({ ...base, userType: USER_TYPE.newCustomer, name: '<b>x</b>' }).name).toBe(AUTH_MESSAGE.invalidName);
    expect(validateCheckout({ ...base, userType: USER_TYPE.hasAccount, name: '12345', password: 'x' }).name).toBeUndefined();
  });

  it('says the extra quality check needs the deadline its limit names', () => {
    expect(ORDER_FORM_MESSAGE.extraQualityCheckUnavailable).toBe('Available for deadlines of 24 hours or more');
  });
});
