const LT = 0x3c; // <
const GT = 0x3e; // >

/** A character that, right after `<`, opens markup: an ASCII letter, `/`, `!` or `?`. */
const opensMarkup = (code: number): boolean =>
  (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || code === 0x2f || code === 0x21 || code === 0x3f;

/** The end of a tag whose name starts at `from`: past its `>`, or at the next `<` (not taken) or the end when broken. */
const tagEnd = (input: string, from: number): number => {
  let i = from;
  while (i < input.length) {
    const code = input.charCodeAt(i);
    if (code === GT) return i + 1;
    if (code === LT) return i;
    i += 1;
  }
  return i;
};

/** The end of a comment whose text starts at `from`: past its `-->`, or the end when it runs on. */
const commentEnd = (input: string, from: number): number => {
  const close = input.indexOf('-->', from);
  return close === -1 ? input.length : close + 3;
};

/**
 * SPEC §5 / CONTRACT: HTML tags are stripped from title, details, credentials, discount code and chat
 * text, on both ends. Tags and comments go; the text between them stays; entities are left as typed.
 *
 * One left-to-right scan (ADR 0067; it replaces the passes to a fixpoint of ADR 0039, quadratic on
 * `'<'.repeat(k) + 'a>'.repeat(k)`). What is kept is a stack: the text pieces, and the count of `<` kept
 * after the last of them. A character that opens markup (a letter, `/`, `!`, `?`) is looked at against
 * the last character kept: when that is a `<`, the two would make a tag (or a comment after `!--`), so
 * the `<` is taken back and the tag (comment) skipped from there. A `<` that was kept thus meets the next kept character,
 * whatever was removed between them (`<<b>img …>` leaves no `<img …>`), and the result holds no `<`
 * followed by a letter, `/`, `!` or `?`; such a result goes through unchanged, so stripping is
 * idempotent. Every character is read once and every `<` counted and taken back at most once: linear.
 */
export const stripHtml = (input: string): string => {
  const kept: string[] = [];
  // The `<` kept last, not yet pushed: while there is one, it is the last character kept.
  let openAngles = 0;
  let i = 0;
  while (i < input.length) {
    const code = input.charCodeAt(i);
    if (code === LT) {
      if (input.startsWith('<!--', i)) i = commentEnd(input, i + 4);
      else {
        openAngles += 1;
        i += 1;
      }
    } else if (openAngles > 0 && opensMarkup(code)) {
      openAngles -= 1;
      i = input.startsWith('!--', i) ? commentEnd(input, i + 3) : tagEnd(input, i);
    } else {
      // Plain text up to the next `<`: only its first character can meet a kept `<`.
      const next = input.indexOf('<', i + 1);
      const end = next === -1 ? input.length : next;
      if (openAngles > 0) kept.push('<'.repeat(openAngles));
      openAngles = 0;
      kept.push(input.slice(i, end));
      i = end;
    }
  }
  if (openAngles > 0) kept.push('<'.repeat(openAngles));
  return kept.join('');
};
