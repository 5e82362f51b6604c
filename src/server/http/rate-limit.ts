import type { RequestHandler } from "express";
import { ProblemError } from "../problems.ts";
import { clockOf, stateOf } from "./request-state.ts";

interface Window {
  startMs: number;
  count: number;
}

/** The window `clientIdRateLimitPerMinute` counts in. */
const windowMs = 60_000;

/**
 * A fixed one-minute window per key, on the time the caller gives (its account's sandbox clock).
 * `take` counts one request and tells whether it is allowed, and the window's figures for the
 * headers. The windows live in this process: each server instance counts its own.
 */
export function createRateLimiter(options: { limit: number }) {
  const windows = new Map<string, Window>();
  return {
    take(key: string, now: number) {
      let window = windows.get(key);
      // A window that ended, or one from the future after the sandbox clock moved back, restarts.
      if (!window || now >= window.startMs + windowMs || now < window.startMs) {
        window = { startMs: now, count: 0 };
        windows.set(key, window);
      }
      window.count++;
      const resetSeconds = Math.max(1, Math.ceil((window.startMs + windowMs - now) / 1000));
      return {
        allowed: window.count <= options.limit,
        limit: options.limit,
        remaining: Math.max(0, options.limit - window.count),
        resetSeconds,
      };
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/** Limits client-ID callers per client ID, answering 429 with Retry-After and RateLimit-* headers. */
export function limitClientIdRate(limiter: RateLimiter): RequestHandler {
  return (_req, res, next) => {
    const principal = stateOf(res).principal;
    if (principal?.kind !== "clientId") return next();
    const result = limiter.take(principal.clientId.id, clockOf(res).now().getTime());
    res.set({
      "RateLimit-Limit": String(result.limit),
      "RateLimit-Remaining": String(result.remaining),
      "RateLimit-Reset": String(result.resetSeconds),
    });
    if (result.allowed) return next();
    next(
      new ProblemError(
        "rateLimited",
        `This client ID made more than ${result.limit} requests in the current minute; retry in ${result.resetSeconds} seconds.`,
        { headers: { "Retry-After": String(result.resetSeconds) } },
      ),
    );
  };
}
