import { STATUS_CODES } from "node:http";
import { receiverProblems } from "../webhooks/problems.ts";

/**
 * Every problem type the server answers, as listed in openapi/description.md. The ones a webhook
 * receiver answers too are the receiver's entries, so that both spell them alike.
 */
export const problemCatalogue = {
  validationFailed: receiverProblems.validationFailed,
  malformedJson: receiverProblems.malformedJson,
  invalidState: { type: "/problems/invalid-state", title: "Invalid state", status: 400 },
  unauthorized: { type: "/problems/unauthorized", title: "Unauthorized", status: 401 },
  originNotAllowed: { type: "/problems/origin-not-allowed", title: "Origin not allowed", status: 403 },
  securePaymentNotPayable: {
    type: "/problems/secure-payment-not-payable",
    title: "Secure payment not payable",
    status: 403,
  },
  notFound: { type: "/problems/not-found", title: "Not found", status: 404 },
  methodNotAllowed: { type: "/problems/method-not-allowed", title: "Method not allowed", status: 405 },
  securePaymentCompleted: {
    type: "/problems/secure-payment-completed",
    title: "Secure payment completed",
    status: 409,
  },
  payloadTooLarge: receiverProblems.payloadTooLarge,
  unsupportedMediaType: receiverProblems.unsupportedMediaType,
  rateLimited: { type: "/problems/rate-limited", title: "Too many requests", status: 429 },
  internalError: receiverProblems.handlerFailed,
} as const;

export type ProblemKind = keyof typeof problemCatalogue;

export interface ValidationIssue {
  /** `body`, `query`, `path` or `headers`, then a JSON Pointer: `/body/requests/0/amount`. */
  path: string;
  message: string;
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  statusCode: number;
  error: string;
  message: string;
  requestId: string;
  errors?: ValidationIssue[];
}

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
}

/** The one function that builds every error body of the server. */
export function buildProblem(
  kind: ProblemKind,
  detail: string,
  context: { instance: string; requestId: string; issues?: ValidationIssue[] | undefined },
): ProblemBody {
  const { type, title, status } = problemCatalogue[kind];
  const body: ProblemBody = {
    type,
    title,
    status,
    detail,
    instance: context.instance,
    statusCode: status,
    error: STATUS_CODES[status] ?? title,
    message: detail,
    requestId: context.requestId,
  };
  if (context.issues && context.issues.length > 0) body.errors = context.issues;
  return body;
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
