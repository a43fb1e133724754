import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { normalizeMessageBody } from '../chat/rules/index';
import { normalizeDiscountCode } from '../discount/rules/index';
import { normalizeTitle, validateOrderDetails } from '../order-form/rules/index';
import { normalizeReviewComment } from '../review/rules/index';
import { stripHtml } from './index';
import { submitWithField } from './stripped-fields.fixture';

/**
 * ADR 0039: stripping that could be bypassed (`<<b>img src=x onerror=alert(1)>` came out as an img tag).
 * Nested and broken tag soup goes through the function of every stripped field; nothing that opens a
 * tag, end tag, comment or processing instruction may survive, and stripping again changes nothing.
 */
const OPENS_MARKUP = /<[a-zA-Z/!?]/;
const pieces = [
  '<',
  '>',
  '<<',
  '>>',
  '/',
  '!',
  '?',
  '--',
  '<!--',
  '-->',
  'b',
  'img',
  'script',
  ' src=x',
  ' onerror=alert(1)',
  '"',
  "'",
  '=',
  ' ',
  'a',
  'x',
  '\n',
];
const tagSoup = fc
  .array(fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 3 })), { maxLength: 12 })
  .map((parts) => parts.join(''));

/** One field of an order the server checks, the others valid. */
const submitted = (field: Parameters<typeof submitWithField>[0], value: string) => {
  const result = submitWithField(field, value);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.order;
};
// Details are empty or at least 10 characters: a prefix keeps every stripped soup valid.
const DETAILS_PREFIX = 'Enough details:';

const fields: Record<string, (soup: string) => string> = {
  stripHtml,
  'title (wizard)': (s) => normalizeTitle(s, 1).title,
  'title (server)': (s) => submitted('topic', s).title,
  'details (server)': (s) => submitted('paperDetails', s.startsWith(DETAILS_PREFIX) ? s : `${DETAILS_PREFIX}${s}`).description,
  'credentials (server)': (s) => submitted('credentials', s).credentials,
  'discount code (server)': (s) => submitted('discountCode', s).discountCode,
  'discount code (apply)': normalizeDiscountCode,
  'review comment': normalizeReviewComment,
  'chat message (server)': normalizeMessageBody,
};

describe('every stripped field refuses nested and broken tags', () => {
  it.each([
    ['<<b>img src=x onerror=alert(1)>', ''],
    ['<scr<script>ipt>alert(1)</scr</script>ipt>', 'ipt>alert(1)ipt>'],
    ['<a<b>', ''],
    ['<<!-- x -->img src=x>', ''],
    ['5 < 6 and 7 > 3', '5 < 6 and 7 > 3'],
  ])('stripHtml(%s) is %s', (input, expected) => {
    expect(stripHtml(input)).toBe(expected);
  });

  for (const [name, strip] of Object.entries(fields)) {
    it(`${name}: no markup survives, and stripping is idempotent`, () => {
      fc.assert(
        fc.property(tagSoup, (soup) => {
          const out = strip(soup);
          expect(out).not.toMatch(OPENS_MARKUP);
          expect(strip(out)).toBe(out);
        }),
        { numRuns: 300 },
      );
    });
  }

  it('the wizard judges details by their stripped length', () => {
    expect(
      validateOrderDetails({ details: '<<b>img src=x onerror=alert(1)>', subject: 4, workType: 1 }, { fileCount: 0 }).details,
    ).toBeDefined();
  });
});
