/**
 * Which failures of a statement are worth another try, and how long to wait before it.
 *
 * - `contention`: the transaction ran into concurrent ones (a serialization failure, a deadlock,
 *   a lock not granted within `lock_timeout`); it was rolled back and may run again.
 * - `unavailable`: the database cannot be reached or did not answer in time (refused or lost
 *   connections, a connect or statement timeout, a server shutting down or out of connections).
 *
 * Anything else (a constraint violation, a bug, a domain refusal thrown by a transaction's work)
 * is not transient and is answered as it is.
 */
export type TransientFailure = "contention" | "unavailable";

const contentionCodes = new Set([
  "40001", // serialization_failure
  "40P01", // deadlock_detected
  "55P03", // lock_not_available: lock_timeout
]);

const unavailableCodes = new Set([
  "57014", // query_canceled: statement_timeout
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now: starting up or shutting down
  "25P03", // idle_in_transaction_session_timeout
  // Node's socket errors on the way to the server.
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EAI_AGAIN",
]);

// What pg and pg-pool throw, without a code, when a connection fails or times out.
const unavailableMessages = [
  /^Connection terminated/, // the server closed the connection, or the connect timeout ended it
  /^timeout exceeded when trying to connect$/, // no free connection of the pool in time
  /^Query read timeout$/, // query_timeout: the server did not answer at all
  /is not queryable/, // a client whose connection already failed
];

/** Whether `error` is transient, and how; undefined when it is not. */
export function classifyFailure(error: unknown): TransientFailure | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === "string") {
    if (contentionCodes.has(code)) return "contention";
    // Class 08: connection exceptions; class 53: insufficient resources (too many connections, ...).
    if (unavailableCodes.has(code) || code.startsWith("08") || code.startsWith("53")) return "unavailable";
  }
  if (unavailableMessages.some((pattern) => pattern.test(error.message))) return "unavailable";
  return undefined;
}

/**
 * A random wait before attempt `attempt + 1` ("full jitter"): anything from nothing up to
 * `baseMs * 2^(attempt - 1)`, at most `capMs`, so that transactions that collided drift apart
 * instead of colliding again in step.
 */
export function backoffMs(attempt: number, baseMs: number, capMs: number): number {
  return Math.random() * Math.min(capMs, baseMs * 2 ** (attempt - 1));
}
