import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { stripHtml } from './index';

describe('HTML tags are stripped from free text (SPEC §5, CONTRACT)', () => {
  it.each([
    ['<b>Bold</b> title', 'Bold title'],
    ['<script>alert(1)</script>Essay', 'alert(1)Essay'],
    ['a <img src=x onerror=alert(1)> b', 'a  b'],
    ['x <!-- hidden --> y', 'x  y'],
    ['unclosed <a href="x', 'unclosed '],
    ['5 < 6 and 7 > 3', '5 < 6 and 7 > 3'],
    ['plain text', 'plain text'],
  ])('%s becomes %s', (input, expected) => {
    expect(stripHtml(input)).toBe(expected);
  });

  it('never leaves a tag behind', () => {
    fc.assert(
      fc.property(fc.string(), fc.constantFrom('b', 'script', 'img', 'div'), fc.string(), (a, tag, b) => {
        const out = stripHtml(`${a}<${tag} x="1">${b}</${tag}>`);
        return !new RegExp(`<\\/?${tag}[\\s>]`).test(out);
      }),
    );
  });

  it('is idempotent', () => {
    fc.assert(fc.property(fc.string(), (s) => stripHtml(stripHtml(s)) === stripHtml(s)));
  });
});
