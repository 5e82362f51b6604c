import type { SpecOperation } from "./operations.ts";
import { asObject, isObject, type JsonObject, resolveNode, type SpecDocument } from "./spec-document.ts";

/** Maps from names to objects: their members are never keywords, whatever they are called. */
const nameMaps = new Set([
  "properties",
  "patternProperties",
  "$defs",
  "dependentSchemas",
  "responses",
  "content",
  "headers",
  "encoding",
  "links",
  "callbacks",
]);
/** Values, kept as they are: a `$ref` inside one is data, not a reference. */
const valueKeys = new Set(["enum", "const", "default"]);
/** Examples only document; nothing that validates needs them. */
const exampleKeys = new Set(["examples", "example"]);
/** Members beside a `$ref` that change nothing a validator checks. */
const annotationKeys = new Set(["description", "title", "$comment", ...exampleKeys]);

const mapMembers = (members: JsonObject, map: (value: unknown) => unknown) =>
  Object.fromEntries(Object.entries(members).map(([name, value]) => [name, map(value)]));

/**
 * The document of one path operation alone, as a validator needs it: the path item reduced to
 * that operation, every reference replaced by what it points to, and no examples. A validator
 * that walks the whole document, or looks each reference up, for every schema it compiles then
 * has little to walk and nothing to look up. A schema that contains itself stays a reference,
 * into `components/schemas`. Each call returns new objects: the caller may change them.
 */
export function operationDocument(document: SpecDocument, operation: SpecOperation): SpecDocument {
  if (operation.kind !== "path") throw new Error(`${operation.operationId} is not a path operation`);
  const resolved = new Map<string, unknown>();
  const resolving = new Set<string>();
  const recursive = new Set<string>();

  const copy = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(copy);
    if (!isObject(node)) return node;
    if (typeof node.$ref === "string") return dereference(node.$ref, node);
    return Object.fromEntries(
      Object.entries(node)
        .filter(([key]) => !exampleKeys.has(key))
        .map(([key, value]) => {
          if (valueKeys.has(key)) return [key, value];
          return [key, nameMaps.has(key) && isObject(value) ? mapMembers(value, copy) : copy(value)];
        }),
    );
  };

  const dereference = (reference: string, node: JsonObject): unknown => {
    const { $ref: _reference, ...siblings } = node;
    if (resolving.has(reference)) {
      recursive.add(reference);
      return { ...(copy(siblings) as JsonObject), $ref: reference };
    }
    let target = resolved.get(reference);
    if (target === undefined) {
      resolving.add(reference);
      target = copy(resolveNode(document, { $ref: reference }));
      resolving.delete(reference);
      resolved.set(reference, target);
    }
    // `$ref` applies beside its siblings, as a one-schema allOf does; alone it is its target. A
    // target with a default keeps its place, where the validator does not apply that default.
    const alone = Object.keys(siblings).every((key) => annotationKeys.has(key));
    if (alone && !(isObject(target) && "default" in target)) return target;
    return { ...(copy(siblings) as JsonObject), allOf: [target] };
  };

  const pathItem = asObject(asObject(document.paths)[operation.key]);
  const method = operation.method.toLowerCase();
  const item = copy(
    pathItem.parameters === undefined
      ? { [method]: pathItem[method] }
      : { [method]: pathItem[method], parameters: pathItem.parameters },
  );
  const schemas: JsonObject = {};
  for (const reference of recursive) {
    const name = /^#\/components\/schemas\/([^/]+)$/.exec(reference)?.[1];
    if (name === undefined) throw new Error(`${reference} refers to itself outside components/schemas`);
    schemas[name] = resolved.get(reference);
  }
  const { paths: _paths, webhooks: _webhooks, components, ...rest } = document;
  return {
    ...rest,
    paths: { [operation.key]: item },
    components: { schemas, securitySchemes: asObject(asObject(components).securitySchemes) },
  };
}
