import { describe, expect, it } from 'vitest';
import { defaultOrderForm, ORDER_FORM_MESSAGE, WRITERS_CHOICE_TITLE } from './index';
import { checkOrderSubmission, priceInputForOrder, type OrderCatalogues } from './submission';
import { toOrderBody } from './rules/index';
import { orderBodySchema } from './order-body';

const catalogues: OrderCatalogues = {
  workTypes: [1, 2, 3, 4],
  levels: [1, 2, 3, 4, 5],
  paperTypes: [1, 17],
  paperFormats: [1, 2],
  subjects: [4],
  resumeServices: [1],
  urgencies: [
    { id: 1, hours: 240 },
    { id: 3, hours: 24 },
    { id: 6, hours: 12 },
  ],
};
const parse = (overrides: Parameters<typeof toOrderBody>[0] extends infer V ? Partial<V> : never) =>
  orderBodySchema.parse(
    toOrderBody({ ...defaultOrderForm(1), subject: 4, title: 'A proper title', details: 'Enough details here', ...overrides }, 1),
  );

describe('checkOrderSubmission (the server runs the wizard rules again)', () => {
  it("gives Writer's Choice to a short title and strips HTML", () => {
    const result = checkOrderSubmission(parse({ title: '<b>ab</b>', credentials: '<i>x</i>' }), { siteCategory: 1, catalogues });
    expect(result.ok && result.order).toMatchObject({ title: WRITERS_CHOICE_TITLE, credentials: 'x' });
  });
  it('refuses details under 10 characters with the SPEC §8 text', () => {
    const result = checkOrderSubmission(parse({ details: 'tiny' }), { siteCategory: 1, catalogues });
    expect(result).toEqual({ ok: false, errors: { paperDetails: [ORDER_FORM_MESSAGE.invalidDetails] } });
  });
  it('fixes paper type 17 for presentations and prices no preferred writer without names', () => {
    const result = checkOrderSubmission(parse({ workType: 3, spacing: 1 }), { siteCategory: 1, catalogues });
    if (!result.ok) throw new Error('refused');
    expect(result.order).toMatchObject({ paperType: 17, spacing: 2 });
    expect(priceInputForOrder(result.order).preferredWriter).toBe(false);
  });
  it('answers a subject of 0 (the empty choice) with SPEC\'s "Choose the required" text, and refuses a negative one', () => {
    const body = { ...parse({}), subject: 0 };
    expect(checkOrderSubmission(orderBodySchema.parse(body), { siteCategory: 1, catalogues })).toEqual({
      ok: false,
      errors: { subject: [ORDER_FORM_MESSAGE.subjectRequired] },
    });
    expect(orderBodySchema.safeParse({ ...body, subject: -1 }).success).toBe(false);
  });
  it('refuses the urgency options levels 4 and 5 disable', () => {
    const result = checkOrderSubmission(parse({ level: 5, urgency: 24 }), { siteCategory: 1, catalogues });
    expect(result.ok).toBe(false);
    expect(!result.ok && Object.keys(result.errors)).toEqual(['urgency']);
  });
});
