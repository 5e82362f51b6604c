import type { RequestHandler } from "express";

/**
 * Runs middleware in order as one handler, as Express runs a route's handlers: an error ends the
 * run and goes on to the error handlers, and `next("route")` leaves the run without one. One
 * Express layer instead of one per step: the router's work per layer is paid once.
 */
export function inSequence(handlers: readonly RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let index = 0;
    const step = (error?: unknown) => {
      if (error === "route") return next();
      const handler = handlers[index++];
      if ((error !== undefined && error !== null) || handler === undefined) return next(error);
      try {
        const result: unknown = handler(req, res, step);
        if (result instanceof Promise) result.catch(step);
      } catch (thrown) {
        step(thrown);
      }
    };
    step();
  };
}
