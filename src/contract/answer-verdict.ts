import type { ErrorObject } from "ajv";
import { isDocumented, responseFor, type SpecOperation } from "../spec/operations.ts";
import { describeErrors, type SchemaValidator } from "../spec/schema-validator.ts";
import { isObject } from "../spec/spec-document.ts";
import type { Exchange } from "./http-exchange.ts";

const problemMediaType = "application/problem+json";
/** Every answer lists this header (openapi/README.md, "Headers"). */
const alwaysExpectedHeader = "x-request-id";

function excerpt(text: string, limit = 160): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > limit ? `${flat.slice(0, limit)}…` : flat;
}

function mediaTypeEssence(contentType: string | null): string {
  return (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

function isJsonMediaType(mediaType: string): boolean {
  return mediaType === "application/json" || mediaType.endsWith("+json");
}

/** One way an answer breaks the spec, as found; judgeAnswer words it for the suite, the proxy by member. */
export type AnswerFinding =
  | { kind: "undocumented-status" }
  | { kind: "missing-header"; header: string }
  | { kind: "header-schema"; header: string; value: string }
  | { kind: "undocumented-content-type"; mediaType: string; documented: string[] }
  | { kind: "not-json" }
  | { kind: "body-schema"; mediaType: string; errors: ErrorObject[] }
  | { kind: "problem-status"; problemStatus: unknown };

function headerFindings(
  validator: SchemaValidator,
  operation: SpecOperation,
  exchange: Exchange,
): AnswerFinding[] {
  const findings: AnswerFinding[] = [];
  const documented = responseFor(operation, exchange.status)?.headers ?? {};
  for (const [name, header] of Object.entries(documented)) {
    const value = exchange.headers.get(name);
    if (value === null) {
      if (header.required || name === alwaysExpectedHeader)
        findings.push({ kind: "missing-header", header: name });
      continue;
    }
    const typed = /^-?\d+(\.\d+)?$/.test(value) ? [value, Number(value)] : [value];
    if (typed.every((candidate) => validator.errorsFor(header.schema, candidate).length > 0)) {
      findings.push({ kind: "header-schema", header: name, value });
    }
  }
  return findings;
}

function bodyFindings(
  validator: SchemaValidator,
  operation: SpecOperation,
  exchange: Exchange,
): AnswerFinding[] {
  const content = responseFor(operation, exchange.status)?.content ?? {};
  const mediaType = mediaTypeEssence(exchange.headers.get("content-type"));
  if (Object.keys(content).length === 0) return [];
  const documented = content[mediaType];
  if (!documented)
    return [{ kind: "undocumented-content-type", mediaType, documented: Object.keys(content) }];
  if (!isJsonMediaType(mediaType) || documented.schema === undefined) return [];
  let body: unknown;
  try {
    body = JSON.parse(exchange.text);
  } catch {
    return [{ kind: "not-json" }];
  }
  const findings: AnswerFinding[] = [];
  const errors = validator.errorsFor(documented.schema, body);
  if (errors.length > 0) findings.push({ kind: "body-schema", mediaType, errors });
  if (mediaType === problemMediaType && isObject(body) && body.status !== exchange.status) {
    findings.push({ kind: "problem-status", problemStatus: body.status });
  }
  return findings;
}

/**
 * Every way an answer breaks its operation's spec, whatever status was expected: an undocumented
 * status, a documented header missing (X-Request-Id always) or of the wrong form, an undocumented
 * content type, a body that is not JSON or breaks the schema of that status and media type, a
 * Problem whose `status` is not the HTTP status.
 */
export function findAnswerIssues(
  validator: SchemaValidator,
  operation: SpecOperation,
  exchange: Exchange,
): AnswerFinding[] {
  return [
    ...(isDocumented(operation, exchange.status) ? [] : [{ kind: "undocumented-status" } as const]),
    ...headerFindings(validator, operation, exchange),
    ...bodyFindings(validator, operation, exchange),
  ];
}

/** A finding in the suite's words, with an excerpt of the body where it helps. */
function describeFinding(finding: AnswerFinding, exchange: Exchange): string {
  switch (finding.kind) {
    case "undocumented-status":
      return `status ${exchange.status} is not documented`;
    case "missing-header":
      return `header ${finding.header} is missing`;
    case "header-schema":
      return `header ${finding.header} "${excerpt(finding.value, 60)}" does not match its schema`;
    case "undocumented-content-type":
      return `content type "${finding.mediaType || "(none)"}" is not documented for ${exchange.status} (expected ${finding.documented.join(" or ")}); body: ${excerpt(exchange.text)}`;
    case "not-json":
      return `body is not JSON: ${excerpt(exchange.text) || "(empty)"}`;
    case "body-schema":
      return `body does not match the ${exchange.status} ${finding.mediaType} schema: ${excerpt(describeErrors(finding.errors), 300)}`;
    case "problem-status":
      return `Problem status ${JSON.stringify(finding.problemStatus)} differs from the HTTP status ${exchange.status}`;
  }
}

/**
 * Checks an answer: one of the expected statuses, documented, with the documented headers (X-Request-Id
 * always), a documented content type and a body that validates against the schema of that status and
 * media type. An error answer is a Problem (application/problem+json, `status` = HTTP status) or, where
 * the spec documents it, the real service's own error body (application/json, `ServiceError`).
 * Returns the problems found, or none.
 */
export function judgeAnswer(
  validator: SchemaValidator,
  operation: SpecOperation,
  exchange: Exchange,
  expectedStatuses: number[],
): string[] {
  if (!expectedStatuses.includes(exchange.status)) {
    const expected = expectedStatuses.length > 0 ? expectedStatuses.join(" or ") : "(none)";
    return [
      `answered ${exchange.status}, expected ${expected}; body: ${excerpt(exchange.text) || "(empty)"}`,
    ];
  }
  return findAnswerIssues(validator, operation, exchange).map((finding) =>
    describeFinding(finding, exchange),
  );
}

/** A short description of a correct answer, for the report. */
export function describeAnswer(exchange: Exchange): string {
  return `${exchange.status} ${mediaTypeEssence(exchange.headers.get("content-type")) || "(no body)"}`;
}
