import type { Request, RequestHandler } from "express";

export interface Readiness {
  /** The first step of every request: it waits while the server is not ready, then passes. */
  waitUntilReady: RequestHandler;
  /** Holds every request but the warm-up's until `work` settles. */
  holdDuring<T>(work: Promise<T>): Promise<T>;
  /** Milliseconds since the last request other than the warm-up's arrived, or since the hold ended. */
  quietForMs(): number;
}

/**
 * When the server answers: once `seeded` resolves, and not while `holdDuring` work runs
 * (the warm-up's own requests pass once seeded). Afterwards a flag, not a promise per request.
 */
export function createReadiness(seeded: Promise<void>, isWarmUp: (req: Request) => boolean): Readiness {
  let ready = false;
  let opened = seeded;
  let lastRequestAt = performance.now();
  seeded.then(
    () => {
      ready = true;
    },
    () => undefined,
  );
  return {
    waitUntilReady(req, _res, next) {
      const warmUp = isWarmUp(req);
      if (!warmUp) lastRequestAt = performance.now();
      if (ready) return next();
      (warmUp ? seeded : opened).then(() => next(), next);
    },
    holdDuring(work) {
      const before = opened;
      ready = false;
      const settled = work.then(
        () => undefined,
        () => undefined,
      );
      opened = Promise.all([before, settled]).then(() => {
        ready = true;
        lastRequestAt = performance.now(); // the quiet starts when the server answers
      });
      return work;
    },
    quietForMs: () => performance.now() - lastRequestAt,
  };
}
