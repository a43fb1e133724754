import { INLINE_ANSWERS_ELEMENT_ID } from '@app/domain/routes';

let answers: Map<string, unknown> | undefined;

/** The `<script type="application/json">` the server put in the page: API path → its answer (ADR 0040). */
const read = (): Map<string, unknown> => {
  if (answers) return answers;
  answers = new Map();
  const text = typeof document === 'undefined' ? null : document.getElementById(INLINE_ANSWERS_ELEMENT_ID)?.textContent;
  if (!text) return answers;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      for (const [path, value] of Object.entries(parsed)) answers.set(path, value);
    }
  } catch {
    // A page without usable answers: the app asks the API, as it always could.
  }
  return answers;
};

/**
 * The answer the page brought for `GET path`, taken once: the first call of a public GET reads it instead
 * of asking the server again; any later call (a refetch, a retry) asks the server. A schema that parses
 * before use still parses it; a check after the paint is not queued for it (ADR 0065).
 */
export const takeInlineAnswer = (path: string): { data: unknown } | undefined => {
  const all = read();
  if (!all.has(path)) return undefined;
  const data = all.get(path);
  all.delete(path);
  return { data };
};

/**
 * For tests: read the page again.
 * @internal a reset of this module's state for tests (ADR 0079)
 */
export const resetInlineAnswers = (): void => {
  answers = undefined;
};

/** For the server render: the answers of the page being rendered. */
export const provideInlineAnswers = (given: Record<string, unknown>): void => {
  answers = new Map(Object.entries(given));
};
