/** Lengths of time in milliseconds, the unit of `Date.now()` and every time-out, so each is written once. */
export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
