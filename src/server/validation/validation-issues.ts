import { readPathOperations } from "../../spec/operations.ts";
import { resolveObject, type SpecDocument } from "../../spec/spec-document.ts";
import type { ValidationIssue } from "../problems.ts";

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
export function collectPatternHints(spec: SpecDocument): Map<string, string> {
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

/** The one field a `oneOf` branch such as `{ title, required: [field] }` asks for, if that is all it does. */
function soleRequiredField(spec: SpecDocument, branch: unknown): string | undefined {
  const { required, ...rest } = resolveObject(spec, branch);
  const onlyRequires = Object.keys(rest).every((key) => key === "title" || key === "description");
  return onlyRequires && Array.isArray(required) && required.length === 1 ? String(required[0]) : undefined;
}

/**
 * The operations whose JSON body takes exactly one of two fields, stated in the spec as
 * `oneOf: [{ required: [a] }, { required: [b] }]`: operationId -> [a, b].
 */
export function collectExclusiveBodyFields(spec: SpecDocument): Map<string, [string, string]> {
  const pairs = new Map<string, [string, string]>();
  for (const operation of readPathOperations(spec)) {
    const oneOf = resolveObject(spec, operation.body?.schema).oneOf;
    if (!Array.isArray(oneOf) || oneOf.length !== 2) continue;
    const [first, second] = oneOf.map((branch) => soleRequiredField(spec, branch));
    if (first !== undefined && second !== undefined) pairs.set(operation.operationId, [first, second]);
  }
  return pairs;
}

/** `required.openapi.validation` -> `required`. */
function keywordOf(errorCode: string): string {
  const dot = errorCode.indexOf(".");
  return dot < 0 ? errorCode : errorCode.slice(0, dot);
}

/** Reads the value a `/body/...`, `/query/...`, `/path/...` or `/headers/...` pointer names. */
function valueAt(sources: Readonly<Record<string, unknown>>, pointer: string): unknown {
  const [, part, ...tokens] = pointer.split("/");
  let current: unknown = part !== undefined && Object.hasOwn(sources, part) ? sources[part] : undefined;
  for (const token of tokens) {
    if (current === null || typeof current !== "object") return undefined;
    const key = token.replaceAll("~1", "/").replaceAll("~0", "~");
    current = Object.hasOwn(current, key) ? (current as Record<string, unknown>)[key] : undefined;
  }
  return current;
}

/** Members whose values are secrets: an issue about one names it, never writes its value back. */
const secretMembers = new Set(["password"]);

function isSecretMember(pointer: string): boolean {
  return secretMembers.has(pointer.slice(pointer.lastIndexOf("/") + 1));
}

function describe(issue: ValidatorIssue, value: unknown, hints: Map<string, string>): string {
  const pattern = /^must match pattern "(.*)"$/.exec(issue.message);
  let message = issue.message;
  if (pattern) {
    const hint = hints.get(pattern[1] as string);
    message = hint ? `must be ${hint}` : message;
  }
  if (issue.errorCode?.startsWith("additionalProperties")) message = unknownMemberMessage;
  if (issue.errorCode?.startsWith("required")) return message;
  return withValueShown(message, value);
}

/** Only a server started with strictBodies refuses unknown members; by default they are dropped unread. */
export const unknownMemberMessage =
  "is not a member the spec describes here: remove it (the server runs with strictBodies)";

const longestShownValue = 80;

/** `message, got <value>` when the value is short enough to show; the message alone otherwise. */
export function withValueShown(message: string, value: unknown): string {
  if (value === undefined) return message;
  // A string of a megabyte is not written out only to be found too long (its JSON is longer still).
  if (typeof value === "string" && value.length > longestShownValue) return message;
  const shown = JSON.stringify(value);
  return shown.length > longestShownValue ? message : `${message}, got ${shown}`;
}

/** What the wording of issues needs from the spec, read once at start-up. */
export interface IssueWording {
  /** Pattern -> plain words, from collectPatternHints. */
  patternHints: Map<string, string>;
  /** Pairs of body fields of which exactly one must be sent, by operationId: reported as one issue. */
  exclusiveBodyFields: Map<string, [string, string]>;
}

export function readIssueWording(spec: SpecDocument): IssueWording {
  return { patternHints: collectPatternHints(spec), exclusiveBodyFields: collectExclusiveBodyFields(spec) };
}

export interface FoundIssues {
  /** The first `limit` issues, in the validator's order, in plain words. */
  listed: ValidationIssue[];
  /** How many distinct issues there are in all. */
  total: number;
}

/**
 * The checks' findings as our issues: paths as `/body/...`, `/query/...`, `/path/...`, plain
 * words, duplicates dropped. Only the first `limit` are worded; the rest are only counted, so
 * that a body with a hundred thousand mistakes costs little more than one with twenty.
 */
export function toValidationIssues(
  sources: { body: unknown; query: unknown; path: unknown; headers: unknown },
  operationId: string | undefined,
  found: ValidatorIssue[],
  wording: IssueWording,
  limit = Number.POSITIVE_INFINITY,
): FoundIssues {
  const exclusive = operationId === undefined ? undefined : wording.exclusiveBodyFields.get(operationId);
  const listed: ValidationIssue[] = [];
  const seen = new Set<string>();
  // A path and the validator's message decide the worded message: they tell duplicates apart.
  const add = (path: string, message: string, word: () => string) => {
    const key = `${path}\u0000${message}`;
    if (seen.has(key)) return;
    seen.add(key);
    if (listed.length < limit) listed.push({ path, message: word() });
  };
  let exclusiveReported = false;
  for (const issue of found) {
    const { path } = issue;
    const keyword = issue.errorCode === undefined ? undefined : keywordOf(issue.errorCode);
    if (exclusive) {
      const [first, second] = exclusive;
      const aboutChoice =
        (path === "/body" && (keyword === "oneOf" || keyword === "not")) ||
        (keyword === "required" && (path === `/body/${first}` || path === `/body/${second}`));
      if (aboutChoice) {
        if (!exclusiveReported) {
          const message = `must contain exactly one of ${first} or ${second}`;
          add("/body", message, () => message);
        }
        exclusiveReported = true;
        continue;
      }
    }
    if (keyword === "oneOf" || keyword === "anyOf") continue; // the branch errors say what is wrong
    add(path, issue.message, () =>
      describe(issue, isSecretMember(path) ? undefined : valueAt(sources, path), wording.patternHints),
    );
  }
  if (seen.size === 0) {
    // Only union keywords failed: keep one issue so that the answer still names the field.
    const [firstFound] = found;
    if (firstFound) add(firstFound.path, firstFound.message, () => firstFound.message);
  }
  return { listed, total: seen.size };
}
