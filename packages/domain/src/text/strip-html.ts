/** Comments (closed or running to the end), then anything that opens a tag: `<` and a letter, `/`, `!` or `?`,
 * up to its `>`, or up to the next `<` or the end when it is broken. */
const COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
const TAG = /<[a-zA-Z/!?][^<>]*(?:>|(?=<)|$)/g;

/**
 * SPEC §5 / CONTRACT: HTML tags are stripped from title, details, credentials, discount code and chat
 * text, on both ends. Tags and comments go; the text between them stays; entities are left as typed.
 * One pass can join the halves of a nested tag (`<<b>img …>` leaves `<img …>`), so passes repeat until
 * nothing changes (ADR 0039): the result holds no `<` followed by a letter, `/`, `!` or `?`.
 */
export const stripHtml = (input: string): string => {
  let current = input;
  for (;;) {
    const next = current.replace(COMMENT, '').replace(TAG, '');
    if (next === current) return current;
    current = next;
  }
};
