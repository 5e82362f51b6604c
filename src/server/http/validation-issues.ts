import type { Request } from "express";
import type { ApiSpec } from "../api-spec.ts";
import type { ValidationIssue } from "../problems.ts";

/** Pairs of body fields of which exactly one must be sent, by operation: reported as one issue. */
const exclusiveBodyFields: Record<string, [string, string]> = {
  createBatchPayout: ["requests", "requestIds"],
  setSandboxClock: ["advanceSeconds", "now"],
};

export interface ValidatorIssue {
  path: string;
  message: string;
  errorCode?: string;
}

/** "DecimalAmount" -> "decimal amount", "EvmAddress" -> "EVM address". */
function titleToWords(title: string): string {
  const acronyms: Record<string, string> = { Evm: "EVM", Ulid: "ULID", Id: "id" };
  return title
    .split(/(?=[A-Z][a-z])/)
    .map((word) => acronyms[word] ?? word.toLowerCase())
    .join(" ");
}

/** Plain-words names for the patterns of the spec's named primitives: `a decimal amount such as 12.50`. */
export function collectPatternHints(spec: ApiSpec): Map<string, string> {
  const hints = new Map<string, string>();
  const schemas = ((spec.components as Record<string, unknown> | undefined)?.schemas ?? {}) as Record<
    string,
    Record<string, unknown>
  >;
  for (const [name, schema] of Object.entries(schemas)) {
    if (typeof schema.pattern !== "string") continue;
    const example = Array.isArray(schema.examples) ? schema.examples[0] : undefined;
    const words = titleToWords(typeof schema.title === "string" ? schema.title : name);
    const article = /^(EVM|[aeio])/i.test(words) ? "an" : "a";
    hints.set(
      schema.pattern,
      `${article} ${words}${example === undefined ? "" : ` such as ${String(example)}`}`,
    );
  }
  return hints;
}

/** `/params/requestId` -> `/path/requestId`; the rest already reads `/body/...`, `/query/...`. */
function normalisePath(path: string): string {
  const pointer = path.startsWith("/") ? path : `/${path.replace(/^\./, "").replaceAll(".", "/")}`;
  return pointer.replace(/^\/params(?=\/|$)/, "/path");
}

function valueAt(req: Request, pathParams: Record<string, string>, pointer: string): unknown {
  const [, part, ...tokens] = pointer.split("/");
  const sources: Record<string, unknown> = {
    body: req.body,
    query: req.query,
    path: pathParams,
    headers: req.headers,
  };
  let current: unknown = part !== undefined && Object.hasOwn(sources, part) ? sources[part] : undefined;
  for (const token of tokens) {
    if (current === null || typeof current !== "object") return undefined;
    const key = token.replaceAll("~1", "/").replaceAll("~0", "~");
    current = Object.hasOwn(current, key) ? (current as Record<string, unknown>)[key] : undefined;
  }
  return current;
}

function describe(issue: ValidatorIssue, value: unknown, hints: Map<string, string>): string {
  const pattern = /^must match pattern "(.*)"$/.exec(issue.message);
  let message = issue.message;
  if (pattern) {
    const hint = hints.get(pattern[1] as string);
    message = hint ? `must be ${hint}` : message;
  }
  if (issue.errorCode?.startsWith("required") || value === undefined) return message;
  const shown = JSON.stringify(value);
  return shown.length > 80 ? message : `${message}, got ${shown}`;
}

/** The validator's findings as our issues: paths as `/body/...`, `/query/...`, `/path/...`, plain words. */
export function toValidationIssues(
  req: Request,
  pathParams: Record<string, string>,
  operationId: string | undefined,
  found: ValidatorIssue[],
  hints: Map<string, string>,
): ValidationIssue[] {
  const exclusive = operationId === undefined ? undefined : exclusiveBodyFields[operationId];
  const issues: ValidationIssue[] = [];
  let exclusiveReported = false;
  for (const issue of found) {
    const path = normalisePath(issue.path);
    const keyword = issue.errorCode?.split(".")[0];
    if (exclusive) {
      const [first, second] = exclusive;
      const aboutChoice =
        (path === "/body" && (keyword === "oneOf" || keyword === "not")) ||
        (keyword === "required" && (path === `/body/${first}` || path === `/body/${second}`));
      if (aboutChoice) {
        if (!exclusiveReported)
          issues.push({ path: "/body", message: `must contain exactly one of ${first} or ${second}` });
        exclusiveReported = true;
        continue;
      }
    }
    if (keyword === "oneOf" || keyword === "anyOf") continue; // the branch errors say what is wrong
    issues.push({ path, message: describe(issue, valueAt(req, pathParams, path), hints) });
  }
  if (issues.length === 0) {
    // Only union keywords failed: keep one issue so that the answer still names the field.
    const [firstFound] = found;
    if (firstFound) issues.push({ path: normalisePath(firstFound.path), message: firstFound.message });
  }
  return dedupe(issues);
}

function dedupe(issues: ValidationIssue[]): ValidationIssue[] {
  const seen = new Set<string>();
  return issues.filter((issue) => {
    const key = `${issue.path}\u0000${issue.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
