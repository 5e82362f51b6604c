export interface PayreqErrorParameters {
  /** The error that led to this one; its message becomes `details` when none is given. */
  cause?: unknown;
  /** Longer explanation, shown after the short message. */
  details?: string | undefined;
  /** Extra lines (status, request id, validation issues) shown between the two. */
  metaMessages?: string[] | undefined;
}

/**
 * The base of every error this package throws: a one-line `shortMessage`, optional `details` and
 * `metaMessages`, and the standard `cause` chain that `walk` follows.
 */
export class PayreqError extends Error {
  override name = "PayreqError";
  readonly shortMessage: string;
  readonly details: string | undefined;
  readonly metaMessages: string[];

  constructor(shortMessage: string, parameters: PayreqErrorParameters = {}) {
    const { cause, metaMessages = [] } = parameters;
    const details = parameters.details ?? detailsOf(cause);
    const message = [
      shortMessage,
      ...(metaMessages.length > 0 ? ["", ...metaMessages] : []),
      ...(details ? ["", `Details: ${details}`] : []),
    ].join("\n");
    super(message, cause === undefined ? undefined : { cause });
    this.shortMessage = shortMessage;
    this.details = details;
    this.metaMessages = metaMessages;
  }

  /** The deepest error of the cause chain, or the first one `predicate` accepts (null if none does). */
  walk(): unknown;
  walk(predicate: (error: unknown) => boolean): unknown;
  walk(predicate?: (error: unknown) => boolean): unknown {
    let current: unknown = this;
    for (;;) {
      if (predicate?.(current)) return current;
      const next = causeOf(current);
      if (next === undefined) return predicate ? null : current;
      current = next;
    }
  }
}

export interface InvalidValueParameters extends PayreqErrorParameters {
  /** Says what was received instead of quoting it, for secrets and for summaries. */
  receivedDescription?: string | undefined;
}

/** A value (an option, a field of an answer or of a webhook payload) that has the wrong form. */
export class InvalidValueError extends PayreqError {
  override name = "InvalidValueError";
  /** Where the value is, for example `retry.retries` or `batchPaymentTransaction.value`. */
  readonly field: string;

  constructor(field: string, expected: string, received: unknown, parameters: InvalidValueParameters = {}) {
    const { receivedDescription, ...rest } = parameters;
    super(
      `Invalid ${field}: expected ${expected}, got ${receivedDescription ?? describeValue(received)}.`,
      rest,
    );
    this.field = field;
  }
}

function detailsOf(cause: unknown): string | undefined {
  if (cause instanceof PayreqError) return cause.details;
  if (cause instanceof Error && cause.message) return cause.message;
  return undefined;
}

function causeOf(error: unknown): unknown {
  return typeof error === "object" && error !== null && "cause" in error ? error.cause : undefined;
}

/** A short, safe rendering of a received value for error messages. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "undefined";
  if (typeof value === "bigint") return `${value}n`;
  if (typeof value === "number" || typeof value === "boolean" || value === null) return String(value);
  if (typeof value === "function" || typeof value === "symbol") return `a ${typeof value}`;
  let text: string;
  try {
    text = JSON.stringify(value);
  } catch {
    text = Object.prototype.toString.call(value);
  }
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
