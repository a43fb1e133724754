/** Money is integer cents inside and a number with 2 decimals on the wire (CONTRACT, DESIGN rule 5). */
export type Cents = number;

export const centsToAmount = (cents: Cents): number => {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`cents must be an integer, got ${cents}`);
  return Math.round(cents) / 100;
};

/** Parses an amount with at most 2 decimals to cents, without floating-point drift. */
export const amountToCents = (amount: number): Cents => {
  if (!Number.isFinite(amount)) throw new RangeError(`amount must be finite, got ${amount}`);
  return Math.round(Number((amount * 100).toFixed(4)));
};

/** SPEC §9 "Payment modal button shows the price with 2 decimals". */
export const formatUsd = (cents: Cents): string =>
  `$${(cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
