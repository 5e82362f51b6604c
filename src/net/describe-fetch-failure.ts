import { describeNetworkError } from "./describe-network-error.ts";

/** True when a request gave up because its time limit ran out (fetch's AbortSignal.timeout among them). */
export function isFetchTimeout(error: unknown): boolean {
  return error instanceof Error && error.name === "TimeoutError";
}

/**
 * Why a fetch or a node:http request threw, in words: fetch's own message ("fetch failed") hides
 * the cause. `timeoutMs` is the request's time limit, named when it ran out.
 */
export function describeFetchFailure(error: unknown, timeoutMs: number): string {
  if (isFetchTimeout(error)) return `no answer within ${timeoutMs / 1000} s`;
  if (!(error instanceof Error)) return String(error);
  // fetch wraps the socket's error as its cause; node:http throws the socket's error itself.
  const cause = (error.cause instanceof Error ? error.cause : error) as NodeJS.ErrnoException;
  if (cause.code) return describeNetworkError(cause);
  return cause.message;
}
