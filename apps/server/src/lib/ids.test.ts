import { describe, expect, it } from 'vitest';
import { DomainError } from '@app/domain';
import { parseId } from './ids';

describe('path ids', () => {
  it.each([
    ['1', 1],
    ['42', 42],
    ['2147483647', 2_147_483_647],
  ])('reads %s', (raw, id) => {
    expect(parseId(raw)).toBe(id);
  });
  it.each(['0', '-1', '1.5', 'abc', '', '1e3', '2147483648', '99999999999'])('answers 404 for %s', (raw) => {
    expect(() => parseId(raw)).toThrow(DomainError);
  });
});
