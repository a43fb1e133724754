/**
 * A LIKE pattern that finds `text` anywhere in a value: `%`, `_` and `\` typed by a person are matched
 * literally. Served by the trigram indexes of migration 0020 (ADR 0081).
 */
export const containsPattern = (text: string): string => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
