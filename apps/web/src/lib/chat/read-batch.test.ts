import { describe, expect, it, vi } from 'vitest';
import { createReadBatcher, type Timers } from './read-batch';

const manualTimers = () => {
  let pending: (() => void) | null = null;
  const timers: Timers = {
    set: (run) => {
      pending = run;
      return 1;
    },
    clear: () => {
      pending = null;
    },
  };
  return { timers, fire: () => pending?.() };
};

describe('read receipts are batched (ADR 0049)', () => {
  it('sends the ids seen close together in one call, each once', async () => {
    const send = vi.fn(() => Promise.resolve());
    const { timers, fire } = manualTimers();
    const batcher = createReadBatcher({ send, timers });
    batcher.seen([3, 1]);
    batcher.seen([1, 2]);
    fire();
    expect(send).toHaveBeenCalledWith([1, 2, 3]);
    batcher.seen([2, 3]);
    fire();
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('sends again ids whose call failed, when seen again', async () => {
    const send = vi.fn().mockRejectedValueOnce(new Error('offline')).mockResolvedValue(undefined);
    const { timers, fire } = manualTimers();
    const batcher = createReadBatcher({ send, timers });
    batcher.seen([7]);
    fire();
    await Promise.resolve();
    await Promise.resolve();
    batcher.seen([7]);
    fire();
    expect(send).toHaveBeenNthCalledWith(2, [7]);
  });

  it('makes no call when nothing new was seen', () => {
    const send = vi.fn(() => Promise.resolve());
    const { timers } = manualTimers();
    const batcher = createReadBatcher({ send, timers });
    batcher.flush();
    expect(send).not.toHaveBeenCalled();
  });
});
