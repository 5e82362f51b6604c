import { buildProblem, type ProblemIssue, type ProblemKind } from "../problems/problem-catalogue.ts";
import {
  StoreContentionError,
  type StoreTransientError,
  StoreUnavailableError,
} from "./store/store-errors.ts";

export {
  buildProblem,
  type ProblemBody,
  type ProblemKind,
  problemCatalogue,
} from "../problems/problem-catalogue.ts";

export type ValidationIssue = ProblemIssue;

/** An error that answers as one entry of the catalogue. Thrown by domain code and middleware alike. */
export class ProblemError extends Error {
  readonly kind: ProblemKind;
  readonly detail: string;
  readonly issues: ValidationIssue[] | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly code: string | undefined;

  constructor(
    kind: ProblemKind,
    detail: string,
    options: { issues?: ValidationIssue[]; headers?: Record<string, string>; code?: string } = {},
  ) {
    super(detail);
    this.name = "ProblemError";
    this.kind = kind;
    this.detail = detail;
    this.issues = options.issues;
    this.headers = options.headers ?? {};
    this.code = options.code;
  }

  /** The body this error answers with, for the request at `instance`. */
  toBody(context: { instance: string; requestId: string }) {
    return buildProblem(this.kind, this.detail, { ...context, issues: this.issues, code: this.code });
  }
}

/** The most issues one answer lists; `detail` counts them all. Keeps answers to hostile bodies small. */
export const maxListedIssues = 20;

/**
 * A 400 validation failure listing the issues, the first `maxListedIssues` of them when there are
 * more; the detail names their fields and, when the list is cut, how many issues there are in
 * all (`total`, when the caller has counted more issues than it passes).
 */
export function validationFailed(
  issues: ValidationIssue[],
  detail?: string,
  total = issues.length,
): ProblemError {
  const listed = issues.slice(0, maxListedIssues);
  const paths = [...new Set(listed.map((issue) => issue.path))];
  const summary =
    detail ??
    (total > listed.length
      ? `${total} issues were found; errors lists the first ${listed.length}, about ${paths.join(", ")}.`
      : `${paths.length} ${paths.length === 1 ? "field is" : "fields are"} invalid: ${paths.join(", ")}.`);
  return new ProblemError("validationFailed", summary, { issues: listed });
}

export function invalidField(path: string, message: string): ProblemError {
  return validationFailed([{ path, message }]);
}

export function notFound(detail: string): ProblemError {
  return new ProblemError("notFound", detail);
}

export function invalidState(detail: string): ProblemError {
  return new ProblemError("invalidState", detail);
}

/**
 * A store's transient failure as its answer: 503 with `Retry-After`, `/problems/concurrent-changes`
 * when the change kept conflicting with concurrent ones, else `/problems/service-unavailable`.
 */
export function storeFailureProblem(error: StoreTransientError): ProblemError {
  const headers = { "Retry-After": String(error.retryAfterSeconds) };
  const retry = `send the request again in ${error.retryAfterSeconds} s (Retry-After)`;
  if (error instanceof StoreContentionError) {
    return new ProblemError(
      "concurrentChanges",
      `Other requests were changing the same records at the same time, and this change kept conflicting with theirs; nothing was changed: ${retry}.`,
      { headers },
    );
  }
  return new ProblemError(
    "serviceUnavailable",
    error instanceof StoreUnavailableError && error.outcomeUnknown
      ? `The sandbox's database stopped answering while the change was being committed, so it may have been kept: read the resource first, then ${retry} if it is needed.`
      : `The sandbox's database is unavailable or did not answer in time; nothing was changed: ${retry}.`,
    { headers },
  );
}
