/**
 * ADR 0068: "characters" in a length rule are Unicode code points, as a person counts them for nearly
 * every text (an emoji is one, not the two UTF-16 units of `string.length`); the same count on both ends.
 * A lone surrogate counts as one.
 */
export const characterCount = (text: string): number => {
  let count = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i += 1;
    }
    count += 1;
  }
  return count;
};

/**
 * ADR 0067: a free-text field whose rule is measured after its HTML is stripped is refused raw, before
 * any work, past this many times the rule's limit in UTF-16 units (`string.length`, known without a
 * scan): a character is at most 2 units, and as much again is left for markup.
 */
export const RAW_TEXT_FACTOR = 4;
export const rawTextMax = (ruleMax: number): number => ruleMax * RAW_TEXT_FACTOR;
