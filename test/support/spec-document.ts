import { readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../../scripts/run-tool.ts";

export { repoRoot };

/** A parsed OpenAPI document: plain JSON, navigated by JSON Pointer. */
export type SpecDocument = Record<string, unknown>;
export type JsonObject = Record<string, unknown>;

export function loadBundledSpec(): SpecDocument {
  return JSON.parse(readFileSync(path.join(repoRoot, "generated", "openapi.json"), "utf8")) as SpecDocument;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function escapePointerToken(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

/** Reads the value at a JSON Pointer such as `/components/schemas/Currency`. */
export function getAtPointer(document: unknown, pointer: string): unknown {
  if (pointer === "" || pointer === "/") return document;
  let current: unknown = document;
  for (const raw of pointer.replace(/^\//, "").split("/")) {
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    if (Array.isArray(current)) current = current[Number(token)];
    else if (isObject(current)) current = current[token];
    else return undefined;
  }
  return current;
}

let bundledSpec: SpecDocument | undefined;

/** A copy of the value of a named example of the bundled spec, such as `CurrencyUsdcBase`. */
export function specExample(name: string): unknown {
  bundledSpec ??= loadBundledSpec();
  const value = getAtPointer(bundledSpec, `/components/examples/${name}/value`);
  if (value === undefined) throw new Error(`the spec has no example named ${name}`);
  return structuredClone(value);
}

/** Follows local `$ref`s (`#/...`) until a node without one is reached. */
export function resolveNode(document: SpecDocument, node: unknown): unknown {
  let current = node;
  for (let hops = 0; isObject(current) && typeof current.$ref === "string"; hops++) {
    if (hops > 32) throw new Error(`reference cycle at ${current.$ref}`);
    const ref = current.$ref;
    if (!ref.startsWith("#")) throw new Error(`only local references are expected in the bundle, got ${ref}`);
    current = getAtPointer(document, ref.slice(1));
    if (current === undefined) throw new Error(`unresolved reference ${ref}`);
  }
  return current;
}

export const httpMethods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

export interface OperationEntry {
  kind: "path" | "webhook";
  key: string;
  method: string;
  operation: JsonObject;
}

/** Every operation of the document's paths and webhooks. */
export function listOperations(document: SpecDocument): OperationEntry[] {
  const entries: OperationEntry[] = [];
  for (const kind of ["path", "webhook"] as const) {
    const items = document[kind === "path" ? "paths" : "webhooks"];
    if (!isObject(items)) continue;
    for (const [key, rawItem] of Object.entries(items)) {
      const item = resolveNode(document, rawItem);
      if (!isObject(item)) continue;
      for (const method of httpMethods) {
        const operation = item[method];
        if (isObject(operation)) entries.push({ kind, key, method, operation });
      }
    }
  }
  return entries;
}
