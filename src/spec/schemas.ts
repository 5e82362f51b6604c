import { loadBundledSpec, resolveObject, type SpecDocument } from "./spec-document.ts";

/** A named schema of `components/schemas`; throws when the spec has none of that name. */
export function namedSchema(name: string, document: SpecDocument = loadBundledSpec()) {
  const schemas = resolveObject(document, resolveObject(document, document.components).schemas);
  if (!Object.hasOwn(schemas, name)) throw new Error(`the spec has no schema named ${name}`);
  return resolveObject(document, schemas[name]);
}

/** The values of a named enum schema, such as `SecurePaymentStatus`, in spec order. */
export function schemaEnum<T extends string = string>(
  name: string,
  document: SpecDocument = loadBundledSpec(),
): readonly T[] {
  const values = namedSchema(name, document).enum;
  if (!Array.isArray(values)) throw new Error(`schema ${name} is not an enum`);
  return values as T[];
}

/** The values of an enum member of a named object schema, such as `SandboxPayerUpdate.kycStatus`. */
export function schemaPropertyEnum<T extends string = string>(
  name: string,
  property: string,
  document: SpecDocument = loadBundledSpec(),
): readonly T[] {
  const properties = resolveObject(document, namedSchema(name, document).properties);
  const values = Object.hasOwn(properties, property)
    ? resolveObject(document, properties[property]).enum
    : undefined;
  if (!Array.isArray(values)) throw new Error(`schema ${name} has no enum member ${property}`);
  return values as T[];
}

/** A value with every local `$ref` replaced by a copy of what it points to. */
function inlineReferences(document: SpecDocument, value: unknown, depth: number): unknown {
  if (depth > 32) throw new Error("references nested too deep to inline");
  if (Array.isArray(value)) return value.map((item) => inlineReferences(document, item, depth + 1));
  if (value === null || typeof value !== "object") return value;
  const node = value as Record<string, unknown>;
  if (typeof node.$ref === "string") {
    const { $ref: _ref, ...siblings } = node;
    const target = resolveObject(document, { $ref: node.$ref });
    return inlineReferences(document, { ...target, ...siblings }, depth + 1);
  }
  return Object.fromEntries(
    Object.entries(node).map(([key, member]) => [key, inlineReferences(document, member, depth + 1)]),
  );
}

/** A named schema with its references inlined, for a schema that stands outside the spec. */
export function inlinedNamedSchema(name: string, document: SpecDocument = loadBundledSpec()) {
  return inlineReferences(document, namedSchema(name, document), 0) as Record<string, unknown>;
}
