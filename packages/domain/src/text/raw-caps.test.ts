import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { CHAT_MESSAGE, messageContentSchema } from '../chat/index';
import { DISCOUNT_MESSAGE, discountApplyBodySchema } from '../discount/index';
import { defaultOrderForm, ORDER_FORM_MESSAGE, ORDER_TEXT_LIMITS, orderBodySchema, toOrderBody } from '../order-form/index';
import { REVIEW_MESSAGE, reviewBodySchema } from '../review/index';
import { REVISION_MESSAGE, revisionCreateBodySchema } from '../revision/index';
import { rawTextMax } from './index';

/**
 * ADR 0067: every free-text field that is stripped is capped raw in its wire schema (checked before any
 * work), at its rule's limit times 4 when the rule is measured after stripping; past the cap the refusal
 * carries the rule's text on the field.
 */
const order = toOrderBody({ ...defaultOrderForm(1), subject: 4, title: 'A proper title', details: 'Enough details here' }, 1);
const cases: [string, z.ZodType, (value: string) => unknown, string, number, string][] = [
  ['order topic', orderBodySchema, (v) => ({ ...order, topic: v }), 'topic', 1000, ORDER_FORM_MESSAGE.invalidTitle],
  [
    'order paper details',
    orderBodySchema,
    (v) => ({ ...order, paperDetails: v }),
    'paperDetails',
    20_000,
    ORDER_FORM_MESSAGE.detailsTooLong,
  ],
  [
    'order credentials',
    orderBodySchema,
    (v) => ({ ...order, credentials: v }),
    'credentials',
    2_000,
    ORDER_FORM_MESSAGE.credentialsTooLong,
  ],
  ['order discount code', orderBodySchema, (v) => ({ ...order, discountCode: v }), 'discountCode', 64, DISCOUNT_MESSAGE.invalid],
  ['discount apply', discountApplyBodySchema, (v) => ({ code: v }), 'code', 64, DISCOUNT_MESSAGE.invalid],
  ['review comment', reviewBodySchema, (v) => ({ rating: 5, comment: v }), 'comment', 8_000, REVIEW_MESSAGE.commentTooLong],
  [
    'revision description',
    revisionCreateBodySchema,
    (v) => ({ category: [1], describeProblem: v }),
    'describeProblem',
    20_000,
    REVISION_MESSAGE.descriptionTooLong,
  ],
  ['chat body', messageContentSchema, (v) => ({ body: v }), 'body', 6_000, CHAT_MESSAGE.tooLong],
];

describe('free-text fields are capped raw, with their rule text (ADR 0067)', () => {
  it("writes the topic's cap out as 4 × the title rule", () => {
    expect(ORDER_TEXT_LIMITS.titleRawMax).toBe(rawTextMax(ORDER_TEXT_LIMITS.titleMax));
  });
  it.each(cases)('%s takes its cap and refuses one more', (_name, schema, body, field, cap, message) => {
    expect(schema.safeParse(body('<'.repeat(cap))).success).toBe(true);
    const refused = schema.safeParse(body('<'.repeat(cap + 1)));
    expect(refused.success).toBe(false);
    const issues = refused.error?.issues ?? [];
    expect(issues.some((issue) => issue.path.includes(field) && issue.message === message)).toBe(true);
  });
});
