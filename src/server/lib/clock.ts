/**
 * What time it is: the one place the server reads the time. Everything else is handed a clock
 * (services through `deps.clock`) or a `now`, so tests move time instead of waiting for it.
 */
export interface Clock {
  now(): Date;
}

/** The real time, for production. */
export const systemClock: Clock = { now: () => new Date() };
