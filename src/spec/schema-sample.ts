import { asObject, isObject, type JsonObject, resolveNode, type SpecDocument } from "./spec-document.ts";

/** Values for string formats, where a schema gives no example. */
const formatSamples: Record<string, string> = {
  "date-time": "2026-01-01T00:00:00Z",
  date: "2026-01-01",
  time: "00:00:00Z",
  email: "user@example.com",
  uri: "https://example.com",
  url: "https://example.com",
  uuid: "00000000-0000-4000-8000-000000000000",
  hostname: "example.com",
  ipv4: "192.0.2.1",
  ipv6: "2001:db8::1",
};

/** Deeper than this, an object or array is left empty: recursive schemas end. */
const maxDepth = 8;

/**
 * A value for `schema`, the same at every call, built as Prism's static generation builds one when
 * a response has no example: the schema's own `examples[0]`, `default`, `const` or first `enum`
 * value; else by type, every property of an object, one item of an array, a format's sample or
 * `"string"`, the `minimum` or `0`, `true`; `null` where the type allows it and nothing else is
 * said. `oneOf`/`anyOf` take their first choice, `allOf` merges its parts.
 */
export function sampleSchema(document: SpecDocument, schema: unknown, depth = 0): unknown {
  const node = asObject(resolveNode(document, schema));
  if (Array.isArray(node.examples) && node.examples.length > 0) return node.examples[0];
  if (node.default !== undefined) return node.default;
  if (node.const !== undefined) return node.const;
  if (Array.isArray(node.enum) && node.enum.length > 0) return node.enum[0];
  if (Array.isArray(node.allOf)) {
    const parts = node.allOf.map((part) => sampleSchema(document, part, depth));
    return parts.every(isObject) ? Object.assign({}, ...parts) : parts[0];
  }
  const choices = Array.isArray(node.oneOf) ? node.oneOf : Array.isArray(node.anyOf) ? node.anyOf : undefined;
  if (choices && choices.length > 0) return sampleSchema(document, choices[0], depth);
  const types = Array.isArray(node.type) ? node.type : [node.type];
  const type =
    types.find((candidate) => candidate !== "null") ?? (types.includes("null") ? "null" : undefined);
  switch (type ?? (node.properties ? "object" : node.items ? "array" : undefined)) {
    case "object": {
      const sample: JsonObject = {};
      if (depth >= maxDepth) return sample;
      for (const [name, property] of Object.entries(asObject(node.properties))) {
        sample[name] = sampleSchema(document, property, depth + 1);
      }
      return sample;
    }
    case "array":
      return depth >= maxDepth || node.items === undefined
        ? []
        : [sampleSchema(document, node.items, depth + 1)];
    case "string":
      return (typeof node.format === "string" && formatSamples[node.format]) || "string";
    case "integer":
    case "number":
      return typeof node.minimum === "number" ? node.minimum : 0;
    case "boolean":
      return true;
    default:
      return null;
  }
}
