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

/**
 * SPEC §9 "Payment modal button shows the price with 2 decimals": `$1,234.56`, what
 * `toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })` writes, in plain
 * arithmetic. The first Intl number format of a page costs its ICU set-up, about 40 ms of the wizard's
 * first render on a 4x slowed phone (ADR 0062).
 */
export const formatUsd = (cents: Cents): string => {
  const whole = Math.round(Math.abs(cents));
  const dollars = String(Math.floor(whole / 100)).replace(/\B(?=(\d{3})+$)/g, ',');
  return `$${cents < 0 && whole > 0 ? '-' : ''}${dollars}.${String(whole % 100).padStart(2, '0')}`;
};
