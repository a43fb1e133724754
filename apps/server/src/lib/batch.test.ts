import { describe, expect, it } from 'vitest';
import { batchPerTurn, inKeyOrder } from './batch';

describe('batchPerTurn', () => {
  it('asks once for the keys of one event-loop turn and answers each caller its own value', async () => {
    const calls: number[][] = [];
    const square = batchPerTurn(async (keys: readonly number[]) => {
      calls.push([...keys]);
      return keys.map((k) => k * k);
    });
    const answers = await Promise.all([square(2), square(3), square(2), square(4)]);
    expect(answers).toEqual([4, 9, 4, 16]);
    expect(calls).toHaveLength(1);
  });

  it('caches nothing: a later turn asks again and sees the new state', async () => {
    let state = 1;
    let calls = 0;
    const read = batchPerTurn(async (keys: readonly string[]) => {
      calls += 1;
      return keys.map(() => state);
    });
    expect(await read('a')).toBe(1);
    state = 2;
    expect(await read('a')).toBe(2);
    expect(calls).toBe(2);
  });

  it('fails every caller of a failed batch, and the next turn works', async () => {
    let fail = true;
    const read = batchPerTurn(async (keys: readonly number[]) => {
      if (fail) throw new Error('database down');
      return keys.map((k) => k + 1);
    });
    const results = await Promise.allSettled([read(1), read(2)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    fail = false;
    expect(await read(1)).toBe(2);
  });

  it('splits a turn of more than 200 keys into batches of 200', async () => {
    const sizes: number[] = [];
    const read = batchPerTurn(async (keys: readonly number[]) => {
      sizes.push(keys.length);
      return [...keys];
    });
    const keys = Array.from({ length: 450 }, (_, i) => i);
    expect(await Promise.all(keys.map(read))).toEqual(keys);
    expect(sizes).toEqual([200, 200, 50]);
  });
});

describe('inKeyOrder', () => {
  it('puts the rows of a WITH ORDINALITY query back in the order of their keys, undefined where none came', () => {
    const rows = [
      { n: '3', v: 'c' },
      { n: 1, v: 'a' },
    ];
    expect(inKeyOrder(['x', 'y', 'z', 'w'], rows)).toEqual([{ n: 1, v: 'a' }, undefined, { n: '3', v: 'c' }, undefined]);
    expect(inKeyOrder([], rows)).toEqual([]);
  });
});
