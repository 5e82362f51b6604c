import { describeNetworkError } from "../net/describe-network-error.ts";

/** True when a fetch gave up because its AbortSignal.timeout ran out. */
export function isFetchTimeout(error: unknown): boolean {
  return error instanceof Error && error.name === "TimeoutError";
}

/**
 * Why a fetch threw, in words: fetch's own message ("fetch failed") hides the cause. `timeoutMs` is
 * the limit of the fetch's AbortSignal.timeout, named when it ran out.
 */
export function describeFetchFailure(error: unknown, timeoutMs: number): string {
  if (isFetchTimeout(error)) return `no answer within ${timeoutMs / 1000} s`;
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? (error.cause as NodeJS.ErrnoException) : undefined;
  if (cause?.code) return describeNetworkError(cause);
  return cause?.message ?? error.message;
}
