/** The service's notion of now; a dependency so tests can move time. */
export interface Clock {
  now(): Date;
  /** Milliseconds since the epoch, without allocating a Date (hot paths). */
  nowMs(): number;
}

export const systemClock: Clock = { now: () => new Date(), nowMs: () => Date.now() };
