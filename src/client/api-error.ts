import type { components } from "../../generated/schema.d.ts";
import { isRecord } from "../wire/is-record.ts";
import { PayreqError } from "../wire/payreq-error.ts";

type ValidationIssue = components["schemas"]["ValidationIssue"];

/** What openapi-fetch resolves a call to: `data` on success, `error` (the parsed body) otherwise. */
export interface FetchResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** The `data` of the success branch of a result, as the spec types it. */
export type SuccessData<Result> = Result extends { data: infer Data } ? Data : never;

/**
 * An HTTP error answer of the service, read from its Problem Details body (RFC 9457). It also
 * understands the service's older bodies, `{statusCode, message, error}` where `message` may be
 * a list of issues, and `{message, errors: [{field, message}]}`.
 */
export class ApiError extends PayreqError {
  override name = "ApiError";
  /** The HTTP status of the answer. */
  readonly status: number;
  /** The problem type, a relative URI such as `/problems/validation-failed`. */
  readonly type: string | undefined;
  /** The problem type's short summary, or the HTTP reason phrase when the body has none. */
  readonly title: string | undefined;
  /** What went wrong in this occurrence. */
  readonly detail: string | undefined;
  /** The path of the request that failed, as the service reports it. */
  readonly instance: string | undefined;
  /** Each rejected input with its location; empty when the service listed none. */
  readonly errors: ValidationIssue[];
  /** The service's id for this request (`X-Request-Id`, else the body's `requestId`): quote it in support requests. */
  readonly requestId: string | undefined;
  /** The error body as received (parsed JSON, or text when it was not JSON). */
  readonly body: unknown;

  constructor(status: number, received: unknown, headers: Headers, reason = "") {
    // openapi-fetch hands over an empty body as "".
    const body = received === "" ? undefined : received;
    const problem = isRecord(body) ? body : {};
    const type = stringOf(problem.type);
    const title = stringOf(problem.title) ?? stringOf(problem.error) ?? (reason || undefined);
    const detail =
      stringOf(problem.detail) ??
      stringOf(problem.message) ??
      (typeof body === "string" && body ? body : undefined);
    const errors = issuesOf(problem);
    const requestId = headers.get("x-request-id") ?? stringOf(problem.requestId);
    super(`The service answered ${status}${title ? ` ${title}` : ""}.`, {
      details: detail,
      metaMessages: [
        ...(type ? [`Type: ${type}`] : []),
        ...(requestId ? [`Request ID: ${requestId}`] : []),
        ...errors.map((issue) => `- ${issue.path}: ${issue.message}`),
      ],
    });
    this.status = status;
    this.type = type;
    this.title = title;
    this.detail = detail;
    this.instance = stringOf(problem.instance);
    this.errors = errors;
    this.requestId = requestId;
    this.body = body;
  }
}

/** Turns the error branch of a result into an `ApiError`. */
export function toApiError(result: FetchResult): ApiError {
  const { response } = result;
  return new ApiError(response.status, result.error, response.headers, response.statusText);
}

/**
 * Returns the data of a successful result and throws an `ApiError` for an error answer:
 * `const currencies = unwrap(await client.GET("/v1/currencies"))`.
 */
export function unwrap<Result extends FetchResult>(result: Result): SuccessData<Result> {
  if (!result.response.ok || result.error !== undefined) throw toApiError(result);
  return result.data as SuccessData<Result>;
}

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** Validation issues in any of the shapes the service uses, as `{path, message}`. */
function issuesOf(problem: Record<string, unknown>): ValidationIssue[] {
  const lists = [problem.errors, problem.message];
  const issues: ValidationIssue[] = [];
  for (const list of lists) {
    if (!Array.isArray(list)) continue;
    for (const item of list) {
      const issue = issueOf(item);
      if (issue) issues.push(issue);
    }
  }
  return issues;
}

function issueOf(item: unknown): ValidationIssue | undefined {
  if (typeof item === "string") return { path: "", message: item };
  if (!isRecord(item)) return undefined;
  const message = stringOf(item.message) ?? "";
  if (typeof item.path === "string") return { path: item.path, message };
  if (Array.isArray(item.path)) return { path: `/${item.path.map(String).join("/")}`, message };
  if (typeof item.field === "string") return { path: item.field, message };
  return { path: "", message };
}
