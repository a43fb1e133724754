/**
 * The order's free-text fields and their raw caps (SPEC §5; ADR 0067), apart from the rest of the form's
 * rules so the wire schema can take them without importing the form (which names the wire's types).
 */
export const ORDER_TEXT_LIMITS = {
  /** the longest title: the wizard's field takes no more, the server refuses more (after stripping) */
  titleMax: 250,
  /** a topic longer than this raw is refused before it is stripped: `rawTextMax(250)`, 4 × 250 UTF-16 units (written out: the wizard's first step stays small) */
  titleRawMax: 1_000,
  /** paper details and credentials have no rule after stripping: these raw caps are theirs */
  detailsMax: 20_000,
  credentialsMax: 2_000,
} as const;

export const ORDER_TEXT_MESSAGE = {
  invalidTitle: 'Please provide valid Title',
  /** SPEC gives no text for these two; the web shows SPEC §8's paperDetails text for any paperDetails error */
  detailsTooLong: `Paper Details can be at most ${ORDER_TEXT_LIMITS.detailsMax} characters`,
  credentialsTooLong: `Credentials can be at most ${ORDER_TEXT_LIMITS.credentialsMax} characters`,
} as const;
