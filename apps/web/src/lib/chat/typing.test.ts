import { describe, expect, it } from 'vitest';
import {
  IDLE_TYPING,
  onKeystroke,
  onStop,
  OTHER_TYPING_TIMEOUT_MS as SUPPORT_TYPING_TIMEOUT_MS,
  otherTypingLeftMs as supportTypingLeftMs,
  OWN_TYPING_REFRESH_MS,
} from './typing';

describe('own typing 11/12 (throttled)', () => {
  it('sends a start on the first key and not on every key', () => {
    const first = onKeystroke(IDLE_TYPING, 'h', 1_000);
    expect(first.signal).toBe('start');
    const second = onKeystroke(first.state, 'hi', 1_500);
    expect(second.signal).toBeNull();
  });

  it('refreshes the start while typing goes on, so staff never time it out', () => {
    const first = onKeystroke(IDLE_TYPING, 'h', 0);
    expect(onKeystroke(first.state, 'he', OWN_TYPING_REFRESH_MS).signal).toBe('start');
  });

  it('sends a stop when the field is emptied or typing stops, and only after a start', () => {
    const started = onKeystroke(IDLE_TYPING, 'h', 0).state;
    expect(onKeystroke(started, '', 10).signal).toBe('stop');
    expect(onStop(started).signal).toBe('stop');
    expect(onStop(IDLE_TYPING).signal).toBeNull();
    expect(onKeystroke(IDLE_TYPING, '   ', 0).signal).toBeNull();
  });
});

describe('support typing 13/14 clears itself', () => {
  it('shows after a start and hides after the timeout with no stop', () => {
    expect(supportTypingLeftMs(1_000, 1_000)).toBe(SUPPORT_TYPING_TIMEOUT_MS);
    expect(supportTypingLeftMs(1_000, 1_000 + SUPPORT_TYPING_TIMEOUT_MS - 1)).toBe(1);
    expect(supportTypingLeftMs(1_000, 1_000 + SUPPORT_TYPING_TIMEOUT_MS)).toBe(0);
    expect(supportTypingLeftMs(1_000, 1_000 + SUPPORT_TYPING_TIMEOUT_MS + 5_000)).toBe(0);
  });
});
