import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { characterCount, rawTextMax } from './index';

describe('ADR 0068: characters are code points', () => {
  it.each([
    ['', 0],
    ['abc', 3],
    ['é', 1],
    ['e\u0301', 2],
    ['😀', 1],
    ['😀😀x', 3],
    ['👨‍👩‍👧', 5],
    ['\ud800', 1],
    ['\udc00\ud800', 2],
  ])('%j has %i', (text, count) => {
    expect(characterCount(text)).toBe(count);
  });
  it('agrees with the string iterator on any text', () => {
    // Any UTF-16 units (lone surrogates included) and whole astral characters.
    const unit = fc.oneof(
      fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
      fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
      fc.integer({ min: 0x10000, max: 0x10ffff }).map((code) => String.fromCodePoint(code)),
    );
    const text = fc.array(unit, { maxLength: 40 }).map((units) => units.join(''));
    fc.assert(fc.property(text, (t) => characterCount(t) === [...t].length));
  });
  it('leaves 4 times a rule for raw text (ADR 0067)', () => {
    expect(rawTextMax(1500)).toBe(6000);
  });
});
