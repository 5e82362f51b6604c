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

function headerIssues(validator: SchemaValidator, operation: SpecOperation, exchange: Exchange): string[] {
  const issues: string[] = [];
  const documented = responseFor(operation, exchange.status)?.headers ?? {};
  for (const [name, header] of Object.entries(documented)) {
    const value = exchange.headers.get(name);
    if (value === null) {
      if (header.required || name === alwaysExpectedHeader) issues.push(`header ${name} is missing`);
      continue;
    }
    const typed = /^-?\d+(\.\d+)?$/.test(value) ? [value, Number(value)] : [value];
    if (typed.every((candidate) => validator.errorsFor(header.schema, candidate).length > 0)) {
      issues.push(`header ${name} "${excerpt(value, 60)}" does not match its schema`);
    }
  }
  return issues;
}

function bodyIssues(validator: SchemaValidator, operation: SpecOperation, exchange: Exchange): string[] {
  const content = responseFor(operation, exchange.status)?.content ?? {};
  const mediaType = mediaTypeEssence(exchange.headers.get("content-type"));
  if (Object.keys(content).length === 0) return [];
  const documented = content[mediaType];
  if (!documented) {
    return [
      `content type "${mediaType || "(none)"}" is not documented for ${exchange.status} (expected ${Object.keys(content).join(" or ")}); body: ${excerpt(exchange.text)}`,
    ];
  }
  if (!isJsonMediaType(mediaType) || documented.schema === undefined) return [];
  let body: unknown;
  try {
    body = JSON.parse(exchange.text);
  } catch {
    return [`body is not JSON: ${excerpt(exchange.text) || "(empty)"}`];
  }
  const issues: string[] = [];
  const errors = validator.errorsFor(documented.schema, body);
  if (errors.length > 0) {
    issues.push(
      `body does not match the ${exchange.status} ${mediaType} schema: ${excerpt(describeErrors(errors), 300)}`,
    );
  }
  if (mediaType === problemMediaType && isObject(body) && body.status !== exchange.status) {
    issues.push(
      `Problem status ${JSON.stringify(body.status)} differs from the HTTP status ${exchange.status}`,
    );
  }
  return issues;
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
  const issues: string[] = [];
  if (!isDocumented(operation, exchange.status)) issues.push(`status ${exchange.status} is not documented`);
  issues.push(...headerIssues(validator, operation, exchange));
  issues.push(...bodyIssues(validator, operation, exchange));
  return issues;
}

/** A short description of a correct answer, for the report. */
export function describeAnswer(exchange: Exchange): string {
  return `${exchange.status} ${mediaTypeEssence(exchange.headers.get("content-type")) || "(no body)"}`;
}
