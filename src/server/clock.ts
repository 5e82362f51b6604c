/** The source of "now" for every time decision of the server: expiry, rate limits, timestamps. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * A clock the sandbox API can move: it reads a base clock and adds an offset, so that time keeps
 * flowing after a move. Moving backwards is allowed; it is a sandbox.
 */
export class SandboxClock implements Clock {
  #offsetMs = 0;
  readonly #base: Clock;

  /** Starts `offsetMs` ahead of `base` (behind when negative). */
  constructor(base: Clock = systemClock, offsetMs = 0) {
    this.#base = base;
    this.#offsetMs = offsetMs;
  }

  now(): Date {
    return new Date(this.#base.now().getTime() + this.#offsetMs);
  }

  /** Milliseconds this clock is ahead of (positive) or behind (negative) its base clock. */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  advance(seconds: number): Date {
    this.#offsetMs += seconds * 1000;
    return this.now();
  }

  set(instant: Date): Date {
    this.#offsetMs = instant.getTime() - this.#base.now().getTime();
    return this.now();
  }
}

/** A clock that stands still until told otherwise: for tests and reproducible runs. */
export function createFixedClock(start: Date | string): Clock & { set(instant: Date | string): void } {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    set(instant) {
      current = new Date(instant);
    },
  };
}
