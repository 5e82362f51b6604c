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
}

/**
 * The published schemas' one quirk relaxed here: an enum marked `nullable` without `null` among
 * its values (`rateProvider` of `GET /v2/payments`). OpenAPI 3.0.3 wants `null` listed for the
 * enum to take it, and Ajv follows that; the generators real clients use (zod's `.nullable()`)
 * accept null, and so does the service's intent. The copy lists `null`.
 */
function relaxNullableEnums(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(relaxNullableEnums);
  if (!isObject(node)) return node;
  const copy: JsonObject = {};
  for (const [key, value] of Object.entries(node)) copy[key] = relaxNullableEnums(value);
  if (copy.nullable === true && Array.isArray(copy.enum) && !copy.enum.includes(null)) {
    copy.enum = [...copy.enum, null];
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
    const contract = relaxNullableEnums(
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
  const schemaPointer = (upstreamOperationId: string, status: number) => {
    const found = where.get(upstreamOperationId);
    if (!found) return { reason: `${upstreamOperationId} is in neither ${publishedContracts.join(" nor ")}` };
    const response = (found.operation.responses as JsonObject | undefined)?.[String(status)];
    const media = isObject(response)
      ? (response.content as JsonObject | undefined)?.["application/json"]
      : undefined;
    if (!isObject(media) || !isObject(media.schema)) {
      return { reason: `${found.document} publishes no schema for its ${status} answer` };
    }
    const parts = [
      "paths",
      found.path,
      found.method,
      "responses",
      String(status),
      "content",
      "application/json",
      "schema",
    ];
    return { ref: `${found.document}#/${parts.map(pointerPart).join("/")}` };
  };
  return {
    uncheckedReason: (upstreamOperationId, status) => schemaPointer(upstreamOperationId, status).reason,
    issues(upstreamOperationId, status, body) {
      const { ref, reason } = schemaPointer(upstreamOperationId, status);
      if (!ref) throw new Error(`cannot check ${upstreamOperationId} ${status}: ${reason}`);
      let validate = compiled.get(ref);
      if (!validate) {
        validate = ajv.compile({ $ref: ref });
        compiled.set(ref, validate);
      }
      return validate(body) ? "" : describeErrors(validate.errors ?? []);
    },
  };
}
