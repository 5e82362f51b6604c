/**
 * The store's transient failures: the call may succeed if it is sent again a little later. The
 * error handler answers both `503` with `Retry-After`; any other error of a store is a fault.
 */
export abstract class StoreTransientError extends Error {
  /** Seconds a caller should wait before sending the request again. */
  abstract readonly retryAfterSeconds: number;
}

/**
 * The database could not be reached, or did not answer in time, even after the store's retries.
 * Nothing was changed, unless `outcomeUnknown`: the connection failed while the transaction was
 * committing, and the database may have kept it.
 */
export class StoreUnavailableError extends StoreTransientError {
  override name = "StoreUnavailableError";
  readonly retryAfterSeconds = 5;
  readonly outcomeUnknown: boolean;

  constructor(message: string, options: { cause: unknown; outcomeUnknown?: boolean }) {
    super(message, { cause: options.cause });
    this.outcomeUnknown = options.outcomeUnknown ?? false;
  }
}

/**
 * The transaction kept conflicting with concurrent transactions on the same records, and the
 * store gave up after its retries. Nothing was changed.
 */
export class StoreContentionError extends StoreTransientError {
  override name = "StoreContentionError";
  readonly retryAfterSeconds = 1;

  constructor(message: string, options: { cause: unknown }) {
    super(message, { cause: options.cause });
  }
}
