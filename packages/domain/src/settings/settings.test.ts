import { describe, expect, it } from 'vitest';
import { isSafeThemeColor, levelFieldForCategory } from './index';

describe('level field per site category (CONTRACT "Orders and catalogues")', () => {
  it.each([
    [1, 'academicLevel'],
    [2, 'academicLevel'],
    [3, 'resumeLevel'],
    [4, 'thesisLevel'],
    [5, 'academicLevel'],
  ])('category %i uses %s', (category, field) => {
    expect(levelFieldForCategory(category)).toBe(field);
  });
});

describe('theme colour', () => {
  it('accepts only hex colours, so nothing else reaches a CSS property', () => {
    expect(isSafeThemeColor('#1d4ed8')).toBe(true);
    expect(isSafeThemeColor('#fff')).toBe(true);
    expect(isSafeThemeColor('red; background:url(x)')).toBe(false);
    expect(isSafeThemeColor('#12345')).toBe(false);
  });
});
