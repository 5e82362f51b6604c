import type { RequestHandler } from "express";

/**
 * The first step of every request: it waits until `ready` resolves (the configured records are
 * in the store), then passes; afterwards a flag, not a promise per request.
 */
export function waitUntilReady(ready: Promise<unknown>): RequestHandler {
  let isReady = false;
  ready.then(
    () => {
      isReady = true;
    },
    () => undefined,
  );
  return (_req, _res, next) => {
    if (isReady) return next();
    ready.then(() => next(), next);
  };
}
