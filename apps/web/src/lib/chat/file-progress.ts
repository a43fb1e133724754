/**
 * ADR 0095: each file's share of a message's upload. The message goes as one request whose progress is one
 * percentage (lib/upload.ts); its files go in order, so the bytes sent so far fill the first file, then the
 * next. Percentages 0 to 100, one per file; an empty file is done once the bytes before it are.
 */
export const filePercents = (sizes: readonly number[], percent: number): number[] => {
  const total = sizes.reduce((sum, size) => sum + Math.max(0, size), 0);
  let sent = (Math.max(0, Math.min(100, percent)) / 100) * total;
  return sizes.map((raw) => {
    const size = Math.max(0, raw);
    if (size === 0) return sent > 0 || percent >= 100 ? 100 : 0;
    const part = Math.min(size, sent);
    sent -= part;
    return Math.round((part / size) * 100);
  });
};
