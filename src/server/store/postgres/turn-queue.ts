/** Gives up the turn: the next waiter, if any, gets it. */
export type ReleaseTurn = () => void;

interface Waiter {
  grant: (release: ReleaseTurn) => void;
  timer: NodeJS.Timeout;
}

/**
 * One turn at a time, in this process: waiters get it in arrival order, and each gives up when
 * its wait passes `timeoutMs` (take answers undefined then).
 */
export class TurnQueue {
  #held = false;
  readonly #waiters: Waiter[] = [];

  take(timeoutMs: number): Promise<ReleaseTurn | undefined> {
    if (!this.#held) {
      this.#held = true;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve) => {
      const waiter: Waiter = {
        grant: resolve,
        timer: setTimeout(() => {
          this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
          resolve(undefined);
        }, timeoutMs),
      };
      this.#waiters.push(waiter);
    });
  }

  #releaser(): ReleaseTurn {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiters.shift();
      if (!next) {
        this.#held = false;
        return;
      }
      clearTimeout(next.timer);
      next.grant(this.#releaser());
    };
  }
}
