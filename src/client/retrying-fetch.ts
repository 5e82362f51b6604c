import { InvalidValueError } from "../wire/payreq-error.ts";

/** The fetch signature openapi-fetch calls: one `Request` in, one `Response` out. */
export type FetchLike = (request: Request) => Promise<Response>;

export interface RetryOptions {
  /** Retries after the first attempt, at most. Default 3. */
  retries?: number | undefined;
  /** The first backoff delay, doubled on each retry before jitter. Default 250 ms. */
  baseDelayMs?: number | undefined;
  /**
   * No wait exceeds this. A `Retry-After` asking for longer is not waited for: the 429 is
   * returned as is. Default 10 000 ms.
   */
  maxDelayMs?: number | undefined;
  /** Waits `ms`; rejects when `signal` aborts. Replace it in tests. */
  sleep?: ((ms: number, signal: AbortSignal) => Promise<void>) | undefined;
  /** A number in [0, 1) for the jitter. Default `Math.random`. */
  random?: (() => number) | undefined;
  /** The current time in ms since the epoch, to read an HTTP-date `Retry-After`. Default `Date.now`. */
  now?: (() => number) | undefined;
}

interface RetrySettings {
  retries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  random: () => number;
  now: () => number;
}

const httpDateStart = /^(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)/;

/** Methods a repeat cannot change the outcome of; POST and PATCH are never retried. */
const idempotentMethods = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]);

/**
 * Wraps `fetch` so that idempotent requests are retried on `429 Too Many Requests` (waiting as
 * `Retry-After` says, in seconds or as an HTTP date) and on network errors (with jittered
 * exponential backoff). Each attempt sends a clone, since a request body can be read only once.
 */
export function withRetries(fetch: FetchLike, options: RetryOptions = {}): FetchLike {
  const settings = readRetryOptions(options);
  return async (request) => {
    if (!idempotentMethods.has(request.method.toUpperCase())) return fetch(request);
    for (let attempt = 0; ; attempt++) {
      const isLast = attempt >= settings.retries;
      let response: Response;
      try {
        response = await fetch(isLast ? request : request.clone());
      } catch (error) {
        if (isLast || request.signal.aborted || isAbortError(error)) throw error;
        await settings.sleep(backoffDelay(attempt, settings), request.signal);
        continue;
      }
      if (response.status !== 429 || isLast) return response;
      const retryAfter = retryAfterMs(response.headers.get("retry-after"), settings.now());
      const delay = retryAfter ?? backoffDelay(attempt, settings);
      if (delay > settings.maxDelayMs) return response;
      await discardBody(response);
      await settings.sleep(delay, request.signal);
    }
  };
}

/**
 * Equal jitter: half of the exponential delay is kept, the other half is random, so that
 * clients limited together do not retry together.
 */
export function backoffDelay(
  attempt: number,
  settings: Pick<RetrySettings, "baseDelayMs" | "maxDelayMs" | "random">,
): number {
  const ceiling = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** attempt);
  return Math.floor(ceiling / 2 + settings.random() * (ceiling / 2));
}

/** The wait a `Retry-After` value asks for, in ms, or undefined when it is absent or unreadable. */
export function retryAfterMs(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  // An HTTP date starts with the day name; Date.parse alone would accept almost anything.
  if (!httpDateStart.test(text)) return undefined;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - nowMs);
}

function readRetryOptions(options: RetryOptions): RetrySettings {
  const retries = options.retries ?? 3;
  const baseDelayMs = options.baseDelayMs ?? 250;
  const maxDelayMs = options.maxDelayMs ?? 10_000;
  if (!Number.isSafeInteger(retries) || retries < 0) {
    throw new InvalidValueError("retry.retries", "a non-negative integer", retries);
  }
  if (!Number.isFinite(baseDelayMs) || baseDelayMs < 0) {
    throw new InvalidValueError("retry.baseDelayMs", "a non-negative number of milliseconds", baseDelayMs);
  }
  if (!Number.isFinite(maxDelayMs) || maxDelayMs < baseDelayMs) {
    throw new InvalidValueError(
      "retry.maxDelayMs",
      `a number of milliseconds >= baseDelayMs (${baseDelayMs})`,
      maxDelayMs,
    );
  }
  return {
    retries,
    baseDelayMs,
    maxDelayMs,
    sleep: options.sleep ?? sleep,
    random: options.random ?? Math.random,
    now: options.now ?? Date.now,
  };
}

function isAbortError(error: unknown): boolean {
  return error instanceof Error && (error.name === "AbortError" || error.name === "TimeoutError");
}

/** Releases the connection of an answer that is not returned. */
async function discardBody(response: Response): Promise<void> {
  try {
    await response.body?.cancel();
  } catch {
    // Nothing to release.
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}
