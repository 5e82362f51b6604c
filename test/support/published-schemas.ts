import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv, type ValidateFunction } from "ajv";
import { addFormats } from "../../src/spec/ajv-formats.ts";
import { describeErrors } from "../../src/spec/schema-validator.ts";
import { isObject, type JsonObject } from "../../src/spec/spec-document.ts";
import { referenceFolder } from "./published-examples.ts";

/** The service's published contracts whose answer schemas real clients check at run time. */
export const publishedContracts = [
  "upstream-openapi.0.31.0.json",
  "upstream-auth-openapi.0.14.0.json",
] as const;

export interface PublishedSchemas {
  /** Why the contracts cannot check that answer (no such operation, or no schema for it); undefined when they can. */
  uncheckedReason(upstreamOperationId: string, status: number): string | undefined;
  /** The issues of `body` against the published JSON schema of the operation's answer with that status; "" when none. */
  issues(upstreamOperationId: string, status: number, body: unknown): string;
  /** Why the contracts cannot check the operation's request body; undefined when they can. */
  requestUncheckedReason(upstreamOperationId: string): string | undefined;
  /** The issues of a request body against the operation's published request schema; "" when none. */
  requestIssues(upstreamOperationId: string, body: unknown): string;
}

/**
 * The published schemas' quirks, relaxed in the copy Ajv compiles:
 * - an enum marked `nullable` without `null` among its values (`rateProvider` of
 *   `GET /v2/payments`): OpenAPI 3.0.3 wants `null` listed for the enum to take it, and Ajv
 *   follows that; the generators real clients use (zod's `.nullable()`) accept null. The copy
 *   lists `null`.
 * - `exclusiveMinimum: true` beside no `minimum` (the commerce expiries of `POST /v2/client-ids`):
 *   the OpenAPI 3.0 boolean form, which bounds nothing without a `minimum` and which Ajv's
 *   draft-07 refuses to compile. The copy drops it (with a `minimum`, it becomes the number).
 * And one left unchecked: JSON bodies published as `type: string` while their examples are
 * objects (the request bodies of the orchestrator's fee configuration and branding creations).
 */
function relaxQuirks(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(relaxQuirks);
  if (!isObject(node)) return node;
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(node)) copy[key] = relaxQuirks(value);
  if (copy.nullable === true && Array.isArray(copy.enum) && !copy.enum.includes(null)) {
    copy.enum = [...copy.enum, null];
  }
  if (typeof copy.exclusiveMinimum === "boolean") {
    if (copy.exclusiveMinimum && typeof copy.minimum === "number") {
      copy.exclusiveMinimum = copy.minimum;
      delete copy.minimum;
    } else {
      delete copy.exclusiveMinimum;
    }
  }
  return copy;
}

const pointerPart = (part: string) => part.replace(/~/g, "~0").replace(/\//g, "~1");

/**
 * Compiles the published answer schemas with Ajv, each document added whole so that its own
 * references resolve. The documents are OpenAPI 3.0: `nullable` is Ajv's own keyword there, and
 * the OpenAPI-only keywords (`example`, `xml`, ...) are let through by non-strict mode.
 */
export function loadPublishedSchemas(): PublishedSchemas {
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  const where = new Map<string, { document: string; path: string; method: string; operation: JsonObject }>();
  for (const document of publishedContracts) {
    const contract = relaxQuirks(
      JSON.parse(readFileSync(path.join(referenceFolder, document), "utf8")),
    ) as JsonObject;
    ajv.addSchema(contract, document);
    for (const [template, item] of Object.entries(contract.paths as JsonObject)) {
      for (const [method, operation] of Object.entries(item as JsonObject)) {
        if (isObject(operation) && typeof operation.operationId === "string") {
          where.set(operation.operationId, { document, path: template, method, operation });
        }
      }
    }
  }
  const compiled = new Map<string, ValidateFunction>();
  /** The JSON pointer of the schema of an answer (by status) or of the request body, or why there is none. */
  const schemaPointer = (upstreamOperationId: string, part: number | "request") => {
    const found = where.get(upstreamOperationId);
    if (!found) return { reason: `${upstreamOperationId} is in neither ${publishedContracts.join(" nor ")}` };
    const at = part === "request" ? ["requestBody"] : ["responses", String(part)];
    const holder = at.reduce<unknown>(
      (node, key) => (isObject(node) ? node[key] : undefined),
      found.operation,
    );
    const media = isObject(holder)
      ? (holder.content as JsonObject | undefined)?.["application/json"]
      : undefined;
    if (!isObject(media) || !isObject(media.schema)) {
      const what = part === "request" ? "request body" : `${part} answer`;
      return { reason: `${found.document} publishes no schema for its ${what}` };
    }
    // A quirk: some JSON bodies are published as `type: string`, their examples objects.
    const examples = isObject(media.examples) ? Object.values(media.examples) : [];
    if (
      media.schema.type === "string" &&
      examples.some((example) => isObject(example) && isObject(example.value))
    ) {
      return { reason: `${found.document} types this JSON body as a string, its examples as objects` };
    }
    const parts = ["paths", found.path, found.method, ...at, "content", "application/json", "schema"];
    return { ref: `${found.document}#/${parts.map(pointerPart).join("/")}` };
  };
  const issuesOf = (upstreamOperationId: string, part: number | "request", value: unknown) => {
    const { ref, reason } = schemaPointer(upstreamOperationId, part);
    if (!ref) throw new Error(`cannot check ${upstreamOperationId} ${part}: ${reason}`);
    let validate = compiled.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: ref });
      compiled.set(ref, validate);
    }
    return validate(value) ? "" : describeErrors(validate.errors ?? []);
  };
  return {
    uncheckedReason: (upstreamOperationId, status) => schemaPointer(upstreamOperationId, status).reason,
    issues: (upstreamOperationId, status, body) => issuesOf(upstreamOperationId, status, body),
    requestUncheckedReason: (upstreamOperationId) => schemaPointer(upstreamOperationId, "request").reason,
    requestIssues: (upstreamOperationId, body) => issuesOf(upstreamOperationId, "request", body),
  };
}
