/** Time is a parameter (DESIGN rule 1): services read it through this, tests replace it. */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };
