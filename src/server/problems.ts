import { buildProblem, type ProblemIssue, type ProblemKind } from "../problems/problem-catalogue.ts";

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

  constructor(
    kind: ProblemKind,
    detail: string,
    options: { issues?: ValidationIssue[]; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = "ProblemError";
    this.kind = kind;
    this.detail = detail;
    this.issues = options.issues;
    this.headers = options.headers ?? {};
  }

  /** The body this error answers with, for the request at `instance`. */
  toBody(context: { instance: string; requestId: string }) {
    return buildProblem(this.kind, this.detail, { ...context, issues: this.issues });
  }
}

/** A 400 validation failure listing every issue; the detail names the fields. */
export function validationFailed(issues: ValidationIssue[], detail?: string): ProblemError {
  const paths = [...new Set(issues.map((issue) => issue.path))];
  const summary =
    detail ??
    `${paths.length} ${paths.length === 1 ? "field is" : "fields are"} invalid: ${paths.join(", ")}.`;
  return new ProblemError("validationFailed", summary, { issues });
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
