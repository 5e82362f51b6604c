import type { RequestHandler } from "express";
import { ProblemError } from "../problems.ts";
import { clockOf, stateOf } from "./request-state.ts";

interface Window {
  startMs: number;
  count: number;
  /** When the block that going over the limit started ends; undefined when not blocked. */
  blockedUntilMs: number | undefined;
}

/** The window `clientIdRateLimitPerMinute` counts in. */
const windowMs = 60_000;

/** How long the service blocks a caller that went over its limit. */
export const rateLimitBlockMs = 5 * 60_000;

/**
 * A fixed one-minute window per key, on the time the caller gives (its account's sandbox clock).
 * `take` counts one request and tells whether it is allowed, and the figures for the headers.
 * With `blockMs`, going over the limit blocks the key that long, as the service does; a blocked
 * request is not counted. The windows live in this process: each server instance counts its own.
 */
export function createRateLimiter(options: { limit: number; blockMs?: number }) {
  const windows = new Map<string, Window>();
  const { limit, blockMs } = options;
  const secondsUntil = (endMs: number, now: number) => Math.max(1, Math.ceil((endMs - now) / 1000));
  return {
    take(key: string, now: number) {
      let window = windows.get(key);
      const blockedUntil = window?.blockedUntilMs;
      if (window && blockedUntil !== undefined && now >= window.startMs && now < blockedUntil) {
        return { allowed: false, limit, remaining: 0, resetSeconds: secondsUntil(blockedUntil, now) };
      }
      // A window that ended (or its block), or one from the future after the sandbox clock moved back, restarts.
      if (!window || now >= window.startMs + windowMs || now < window.startMs || blockedUntil !== undefined) {
        window = { startMs: now, count: 0, blockedUntilMs: undefined };
        windows.set(key, window);
      }
      window.count++;
      const allowed = window.count <= limit;
      if (!allowed && blockMs !== undefined) {
        window.blockedUntilMs = now + blockMs;
        return { allowed, limit, remaining: 0, resetSeconds: secondsUntil(window.blockedUntilMs, now) };
      }
      return {
        allowed,
        limit,
        remaining: Math.max(0, limit - window.count),
        resetSeconds: secondsUntil(window.startMs + windowMs, now),
      };
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/**
 * Limits client-ID callers per client ID (and per IP address too with `perAddress`, as the
 * service counts), answering 429 with Retry-After and RateLimit-* headers.
 */
export function limitClientIdRate(limiter: RateLimiter, options: { perAddress: boolean }): RequestHandler {
  return (req, res, next) => {
    const principal = stateOf(res).principal;
    if (principal?.kind !== "clientId") return next();
    const key = options.perAddress
      ? `${principal.clientId.id} ${req.socket.remoteAddress}`
      : principal.clientId.id;
    const result = limiter.take(key, clockOf(res).now().getTime());
    res.set({
      "RateLimit-Limit": String(result.limit),
      "RateLimit-Remaining": String(result.remaining),
      "RateLimit-Reset": String(result.resetSeconds),
    });
    if (result.allowed) return next();
    const detail = options.perAddress
      ? `This client ID made more than ${result.limit} requests in a minute from this address, which is blocked for ${result.resetSeconds} seconds more; retry then.`
      : `This client ID made more than ${result.limit} requests in the current minute; retry in ${result.resetSeconds} seconds.`;
    next(
      new ProblemError("rateLimited", detail, { headers: { "Retry-After": String(result.resetSeconds) } }),
    );
  };
}
