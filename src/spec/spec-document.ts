import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** A parsed OpenAPI document: plain JSON, navigated by JSON Pointer. */
export type SpecDocument = Record<string, unknown>;
export type JsonObject = Record<string, unknown>;

/** The bundled single-file spec every tool reads, written by `npm run build`. */
export const bundledSpecFile = fileURLToPath(new URL("../../generated/openapi.json", import.meta.url));

/** The published reference built from it, one self-contained HTML file. */
export const referenceDocsFile = fileURLToPath(new URL("../../docs/index.html", import.meta.url));

export function readSpecFile(file: string): SpecDocument {
  return JSON.parse(readFileSync(file, "utf8")) as SpecDocument;
}

let bundledSpec: SpecDocument | undefined;

/** The bundled spec, read from disk once per process. Callers must not mutate it. */
export function loadBundledSpec(): SpecDocument {
  bundledSpec ??= readSpecFile(bundledSpecFile);
  return bundledSpec;
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `value` when it is an object, else an empty one: for optional members of the document. */
export function asObject(value: unknown): JsonObject {
  return isObject(value) ? value : {};
}

export function escapePointerToken(token: string): string {
  return token.replaceAll("~", "~0").replaceAll("/", "~1");
}

export function unescapePointerToken(token: string): string {
  return token.includes("~") ? token.replaceAll("~1", "/").replaceAll("~0", "~") : token;
}

/**
 * Each pointer's tokens, unescaped, split once: the spec's references are a few hundred strings,
 * each followed many times (every server start reads every operation's). Bounded, for callers
 * that read pointers of their own.
 */
const pointerTokens = new Map<string, readonly string[]>();
const maxCachedPointers = 10_000;

function tokensOf(pointer: string): readonly string[] {
  let tokens = pointerTokens.get(pointer);
  if (tokens === undefined) {
    tokens = pointer.replace(/^\//, "").split("/").map(unescapePointerToken);
    if (pointerTokens.size >= maxCachedPointers) pointerTokens.clear();
    pointerTokens.set(pointer, tokens);
  }
  return tokens;
}

/** Reads the value at a JSON Pointer such as `/components/schemas/Currency`. */
export function getAtPointer(document: unknown, pointer: string): unknown {
  if (pointer === "" || pointer === "/") return document;
  let current: unknown = document;
  for (const token of tokensOf(pointer)) {
    if (Array.isArray(current)) current = current[Number(token)];
    else if (isObject(current) && Object.hasOwn(current, token)) current = current[token];
    else return undefined;
  }
  return current;
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

/** `resolveNode` for nodes that must be objects (path items, operations, schemas). */
export function resolveObject(document: SpecDocument, node: unknown): JsonObject {
  return asObject(resolveNode(document, node));
}

/** A copy of the value of a named example of the spec, such as `CurrencyUsdcBase`. */
export function specExample(name: string, document: SpecDocument = loadBundledSpec()): unknown {
  const value = getAtPointer(document, `/components/examples/${escapePointerToken(name)}/value`);
  if (value === undefined) throw new Error(`the spec has no example named ${name}`);
  return structuredClone(value);
}
