import { TYPING_IDLE_MS, TYPING_REFRESH_MS, TYPING_TIMEOUT_MS } from '@app/domain/chat/rules';

/**
 * Typing (SPEC §4 events 11 to 14, ADR 0049, ADR 0076): one rule for both sides, the customer (11/12)
 * and staff (13/14), with the domain's constants.
 *
 * The other side's "is typing…" shows until its stop comes, or until `OTHER_TYPING_TIMEOUT_MS` passes
 * with no new start, so a lost stop frame or a closed tab never leaves it on for good.
 *
 * Own typing: a start once when typing starts, again at most every `OWN_TYPING_REFRESH_MS` while it goes
 * on (so the other side's timeout does not clear it), and a stop after `OWN_TYPING_IDLE_MS` without a
 * key, or when the message is sent, the field cleared or left.
 */
export const OTHER_TYPING_TIMEOUT_MS = TYPING_TIMEOUT_MS;
export const OWN_TYPING_REFRESH_MS = TYPING_REFRESH_MS;
export const OWN_TYPING_IDLE_MS = TYPING_IDLE_MS;

export type TypingSignal = 'start' | 'stop' | null;

export interface OwnTypingState {
  typing: boolean;
  lastStartSentAt: number;
}

export const IDLE_TYPING: OwnTypingState = { typing: false, lastStartSentAt: Number.NEGATIVE_INFINITY };

/** A key was typed at `now` into a field that now holds `text`: what to send, and the next state. */
export const onKeystroke = (state: OwnTypingState, text: string, now: number): { state: OwnTypingState; signal: TypingSignal } => {
  if (text.trim() === '') return state.typing ? { state: IDLE_TYPING, signal: 'stop' } : { state, signal: null };
  if (!state.typing || now - state.lastStartSentAt >= OWN_TYPING_REFRESH_MS) {
    return { state: { typing: true, lastStartSentAt: now }, signal: 'start' };
  }
  return { state, signal: null };
};

/** The field went idle, was sent or lost its page: a stop if a start went out. */
export const onStop = (state: OwnTypingState): { state: OwnTypingState; signal: TypingSignal } =>
  state.typing ? { state: IDLE_TYPING, signal: 'stop' } : { state, signal: null };

/** How much longer the other side shows typing at `now`, given the time of its last start (0: hidden). */
export const otherTypingLeftMs = (startedAt: number, now: number): number => Math.max(0, startedAt + OTHER_TYPING_TIMEOUT_MS - now);
