/** The source of "now" for every time decision of the server: expiry, rate limits, timestamps. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/**
 * The instants the sandbox clock may show, in epoch milliseconds, from `earliest` up to but not
 * including `end`. ULIDs need 1970 or later; ending at 9000 keeps every derived timestamp (a
 * link's expiry is at most ten years on) a four-digit-year date-time. Spec: SandboxInstant.
 */
export const sandboxClockRange = {
  earliest: Date.parse("1970-01-01T00:00:00Z"),
  end: Date.parse("9000-01-01T00:00:00Z"),
} as const;

export function isSandboxInstant(epochMs: number): boolean {
  return Number.isFinite(epochMs) && epochMs >= sandboxClockRange.earliest && epochMs < sandboxClockRange.end;
}

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

  /** Throws a RangeError, and stays put, if the move would leave `sandboxClockRange`. */
  advance(seconds: number): Date {
    this.#requireSandboxInstant(this.now().getTime() + seconds * 1000);
    this.#offsetMs += seconds * 1000;
    return this.now();
  }

  /** Throws a RangeError, and stays put, if `instant` is outside `sandboxClockRange`. */
  set(instant: Date): Date {
    this.#requireSandboxInstant(instant.getTime());
    this.#offsetMs = instant.getTime() - this.#base.now().getTime();
    return this.now();
  }

  #requireSandboxInstant(epochMs: number): void {
    if (!isSandboxInstant(epochMs)) throw new RangeError(`the sandbox clock cannot show ${epochMs}`);
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
