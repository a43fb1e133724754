import { describe, expect, it } from 'vitest';
import { filePercents } from './file-progress';

describe('ADR 0095: each file of an upload gets its share of the progress', () => {
  it('fills the files in order', () => {
    expect(filePercents([100, 300], 0)).toEqual([0, 0]);
    expect(filePercents([100, 300], 10)).toEqual([40, 0]);
    expect(filePercents([100, 300], 25)).toEqual([100, 0]);
    expect(filePercents([100, 300], 50)).toEqual([100, 33]);
    expect(filePercents([100, 300], 100)).toEqual([100, 100]);
  });
  it('keeps within 0 and 100 whatever it hears', () => {
    expect(filePercents([10, 10], -5)).toEqual([0, 0]);
    expect(filePercents([10, 10], 140)).toEqual([100, 100]);
    expect(filePercents([], 50)).toEqual([]);
  });
  it('an empty file is done once the bytes before it are', () => {
    expect(filePercents([0, 100], 0)).toEqual([0, 0]);
    expect(filePercents([100, 0], 50)).toEqual([50, 0]);
    expect(filePercents([100, 0], 100)).toEqual([100, 100]);
  });
});
