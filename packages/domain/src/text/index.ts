/**
 * SPEC §5 / CONTRACT: HTML tags are stripped from title, details, credentials, discount code and chat
 * text, on both ends. Tags and comments go; the text between them stays; entities are left as typed.
 */
export const stripHtml = (input: string): string =>
  input
    .replace(/<!--[\s\S]*?(?:-->|$)/g, '')
    .replace(/<\/?[a-zA-Z][^<>]*(?:>|$)/g, '')
    .replace(/<[!?/][^<>]*(?:>|$)/g, '');
