/** The longest stored file name, in characters (code points, ADR 0068); a longer one keeps its end (the extension). */
export const FILE_NAME_MAX_LENGTH = 255;

/**
 * What may not be in a stored name (ADR 0068): control characters (`\p{Cc}`), format characters
 * (`\p{Cf}`: the bidirectional overrides and isolates that make `invoice\u202Efdp.exe.pdf` read as
 * `invoiceexe.pdf`, zero-width characters, the BOM, soft hyphens), line and paragraph separators, and
 * lone surrogates (no character; `encodeURIComponent` throws on them).
 */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/**
 * The name a file is stored, listed and downloaded under, for every upload path (order and revision
 * files, staff deliveries, chat attachments): the part after the last `/` or `\`, without the characters
 * above, in Unicode NFC (so the same name typed on two systems is one name), trimmed, at most 255
 * characters with the end kept. The extension checks run on this name.
 */
export const cleanFileName = (raw: string): string => {
  const base = raw.replace(UNSAFE, '').normalize('NFC').split(/[/\\]/).pop() ?? '';
  const trimmed = base.trim();
  const chars = Array.from(trimmed);
  return chars.length > FILE_NAME_MAX_LENGTH ? chars.slice(-FILE_NAME_MAX_LENGTH).join('').trimStart() : trimmed;
};
