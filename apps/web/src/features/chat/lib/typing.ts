import { TYPING_TIMEOUT_MS } from '@app/domain/chat/rules';

/**
 * Typing (SPEC §4 events 11 to 14, ADR 0049).
 *
 * Support's "is typing…" (13) shows until 14 comes, or until `SUPPORT_TYPING_TIMEOUT_MS` passes with no
 * new 13, so a lost stop frame or a support agent who closed their tab never leaves it on for good.
 *
 * The customer's own typing: 11 once when typing starts, again at most every `OWN_TYPING_REFRESH_MS`
 * while it goes on (so staff's own timeout does not clear it), and 12 after `OWN_TYPING_IDLE_MS` without
 * a key, or when the message is sent or the field cleared.
 */
export const SUPPORT_TYPING_TIMEOUT_MS = TYPING_TIMEOUT_MS;
export const OWN_TYPING_REFRESH_MS = 3_000;
export const OWN_TYPING_IDLE_MS = 4_000;

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

/** Is support shown typing at `now`, given the time of the last 13 (null after a 14). */
export const supportTypingVisible = (startedAt: number | null, now: number): boolean =>
  startedAt !== null && now - startedAt < SUPPORT_TYPING_TIMEOUT_MS;
