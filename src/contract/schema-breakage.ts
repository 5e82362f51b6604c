import { isObject, type JsonObject, resolveNode, type SpecDocument } from "../spec/spec-document.ts";

/** A value that breaks one constraint of a schema, named after the keyword it breaks. */
export interface Breakage {
  constraint: string;
  value: unknown;
}

/** Follows `$ref`s; keywords written next to a `$ref` are kept on top of the referenced schema. */
export function resolveSchema(spec: SpecDocument, schema: unknown): JsonObject {
  if (!isObject(schema)) return {};
  if (typeof schema.$ref !== "string") return schema;
  const { $ref, ...siblings } = schema;
  return { ...resolveSchema(spec, resolveNode(spec, { $ref })), ...siblings };
}

/** The schema and the branches of its `anyOf`/`oneOf`/`allOf`, each resolved. */
export function schemaBranches(spec: SpecDocument, schema: unknown): JsonObject[] {
  const resolved = resolveSchema(spec, schema);
  const branches = [resolved];
  for (const keyword of ["anyOf", "oneOf", "allOf"]) {
    const list = resolved[keyword];
    if (Array.isArray(list)) for (const branch of list) branches.push(...schemaBranches(spec, branch));
  }
  return branches;
}

const formatBreakers: Record<string, string> = {
  email: "not-an-email",
  uri: "not a uri",
  "uri-reference": "not a uri reference\\",
  "date-time": "not-a-date-time",
  date: "not-a-date",
  uuid: "not-a-uuid",
};

function schemaType(schema: JsonObject): string | undefined {
  if (typeof schema.type === "string") return schema.type;
  if (Array.isArray(schema.type)) return String(schema.type[0]);
  if (typeof schema.pattern === "string" || schema.minLength !== undefined || schema.format !== undefined)
    return "string";
  return undefined;
}

function stringBreakages(schema: JsonObject): Breakage[] {
  const found: Breakage[] = [];
  if (typeof schema.pattern === "string") found.push({ constraint: "pattern", value: "in!valid" });
  if (typeof schema.minLength === "number" && schema.minLength > 0) {
    found.push({ constraint: "minLength", value: "x".repeat(schema.minLength - 1) });
  }
  if (typeof schema.maxLength === "number") {
    found.push({ constraint: "maxLength", value: "x".repeat(schema.maxLength + 1) });
  }
  if (typeof schema.format === "string" && schema.format in formatBreakers) {
    found.push({ constraint: "format", value: formatBreakers[schema.format] });
  }
  if (Array.isArray(schema.enum)) found.push({ constraint: "enum", value: "not-a-listed-value" });
  return found;
}

function numberBreakages(schema: JsonObject, integer: boolean): Breakage[] {
  const found: Breakage[] = [];
  if (typeof schema.minimum === "number") found.push({ constraint: "minimum", value: schema.minimum - 1 });
  if (typeof schema.maximum === "number") found.push({ constraint: "maximum", value: schema.maximum + 1 });
  if (typeof schema.exclusiveMinimum === "number") {
    found.push({ constraint: "exclusiveMinimum", value: schema.exclusiveMinimum });
  }
  if (typeof schema.exclusiveMaximum === "number") {
    found.push({ constraint: "exclusiveMaximum", value: schema.exclusiveMaximum });
  }
  if (integer) found.push({ constraint: "integer", value: 1.5 });
  return found;
}

function arrayBreakages(schema: JsonObject, valid: unknown): Breakage[] {
  const items = Array.isArray(valid) ? valid : [];
  const found: Breakage[] = [];
  if (typeof schema.minItems === "number" && schema.minItems > 0) {
    found.push({ constraint: "minItems", value: items.slice(0, schema.minItems - 1) });
  }
  if (typeof schema.maxItems === "number" && items.length > 0) {
    found.push({
      constraint: "maxItems",
      value: Array.from({ length: schema.maxItems + 1 }, () => items[0]),
    });
  }
  return found;
}

const wrongTypeValues: Record<string, unknown> = {
  string: 12345,
  number: "not-a-number",
  integer: "not-a-number",
  boolean: "not-a-boolean",
  array: "not-an-array",
  object: "not-an-object",
};

/**
 * Values that break the constraints of a schema (and of its anyOf/oneOf branches): pattern, length,
 * format, enum, range, item count, and a value of the wrong type. The caller keeps only those that the
 * whole request then fails to validate with.
 */
export function listBreakages(spec: SpecDocument, schema: unknown, valid: unknown): Breakage[] {
  const found: Breakage[] = [];
  for (const branch of schemaBranches(spec, schema)) {
    const type = schemaType(branch);
    if (type === "string") found.push(...stringBreakages(branch));
    if (type === "number" || type === "integer") found.push(...numberBreakages(branch, type === "integer"));
    if (type === "array") found.push(...arrayBreakages(branch, valid));
  }
  const type = schemaBranches(spec, schema)
    .map(schemaType)
    .find((candidate) => candidate !== undefined);
  if (type !== undefined && type in wrongTypeValues) {
    found.push({ constraint: "type", value: wrongTypeValues[type] });
  }
  // One breakage per keyword and value: anyOf branches often share a keyword.
  const seen = new Set<string>();
  return found.filter((breakage) => {
    const key = `${breakage.constraint}:${JSON.stringify(breakage.value)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
