import { asObject, escapePointerToken, isObject, resolveNode, type SpecDocument } from "./spec-document.ts";

/**
 * Where a schema bounds the length of arrays: its `maxItems`, and the limits below it along
 * `properties` and `items`. Only constraints every valid value must meet are followed (`$ref`,
 * `allOf`); the branches of `oneOf` and `anyOf` are not.
 */
export interface ArrayLimits {
  maxItems?: number;
  items?: ArrayLimits;
  properties?: Map<string, ArrayLimits>;
}

function merge(into: ArrayLimits, from: ArrayLimits | undefined): void {
  if (!from) return;
  if (from.maxItems !== undefined) into.maxItems = Math.min(into.maxItems ?? from.maxItems, from.maxItems);
  if (from.items) {
    into.items ??= {};
    merge(into.items, from.items);
  }
  for (const [name, limits] of from.properties ?? []) {
    into.properties ??= new Map();
    const existing = into.properties.get(name) ?? {};
    merge(existing, limits);
    into.properties.set(name, existing);
  }
}

const isEmpty = (limits: ArrayLimits) =>
  limits.maxItems === undefined && limits.items === undefined && limits.properties === undefined;

/** The array limits of `schema`; undefined when it bounds no array. A recursive schema is followed once. */
export function readArrayLimits(document: SpecDocument, schema: unknown): ArrayLimits | undefined {
  const visiting = new Set<unknown>();
  const read = (node: unknown): ArrayLimits | undefined => {
    if (!isObject(node) || visiting.has(node)) return undefined;
    visiting.add(node);
    const limits: ArrayLimits = {};
    if (typeof node.maxItems === "number") limits.maxItems = node.maxItems;
    if (typeof node.$ref === "string") merge(limits, read(resolveNode(document, { $ref: node.$ref })));
    if (Array.isArray(node.allOf)) for (const part of node.allOf) merge(limits, read(part));
    const items = read(node.items);
    if (items) merge(limits, { items });
    for (const [name, property] of Object.entries(asObject(node.properties))) {
      const found = read(property);
      if (found) merge(limits, { properties: new Map([[name, found]]) });
    }
    visiting.delete(node);
    return isEmpty(limits) ? undefined : limits;
  };
  return read(schema);
}

export interface OverlongArray {
  /** JSON Pointer of the array inside the value. */
  pointer: string;
  maxItems: number;
  length: number;
}

/**
 * The arrays of `value` longer than `limits` allows. The items of an array that is too long are
 * not looked at: finding it costs no more for a million items than for a hundred and one.
 */
export function findOverlongArrays(value: unknown, limits: ArrayLimits, pointer = ""): OverlongArray[] {
  if (Array.isArray(value)) {
    if (limits.maxItems !== undefined && value.length > limits.maxItems) {
      return [{ pointer, maxItems: limits.maxItems, length: value.length }];
    }
    const { items } = limits;
    return items
      ? value.flatMap((item, index) => findOverlongArrays(item, items, `${pointer}/${index}`))
      : [];
  }
  if (!isObject(value) || !limits.properties) return [];
  const found: OverlongArray[] = [];
  for (const [name, below] of limits.properties) {
    if (Object.hasOwn(value, name))
      found.push(...findOverlongArrays(value[name], below, `${pointer}/${escapePointerToken(name)}`));
  }
  return found;
}

/** Keywords whose schemas every valid value's parts must meet; `not` is left out, it only refuses. */
const applicators = ["items", "additionalProperties", "unevaluatedItems", "unevaluatedProperties"];
const schemaLists = ["allOf", "oneOf", "anyOf", "prefixItems"];
const schemaMaps = ["properties", "patternProperties"];

/**
 * Where `schema` accepts an array without a `maxItems`, as paths of keywords from the schema
 * (`/properties/events`). Such an array can hold as many items as the body limit allows, each one
 * checked by the validator; the spec keeps every array of a request body bounded.
 */
export function findUnboundedArrays(document: SpecDocument, schema: unknown): string[] {
  const found: string[] = [];
  const visiting = new Set<unknown>();
  const visit = (node: unknown, at: string) => {
    if (!isObject(node) || visiting.has(node)) return;
    visiting.add(node);
    const types = Array.isArray(node.type) ? node.type : [node.type];
    const isArray = types.includes("array") || node.items !== undefined || node.prefixItems !== undefined;
    if (isArray && typeof node.maxItems !== "number") found.push(at || "/");
    if (typeof node.$ref === "string") visit(resolveNode(document, { $ref: node.$ref }), at);
    for (const key of applicators) visit(node[key], `${at}/${key}`);
    for (const key of schemaLists) {
      const list = node[key];
      if (!Array.isArray(list)) continue;
      for (const [index, part] of list.entries()) visit(part, `${at}/${key}/${index}`);
    }
    for (const key of schemaMaps) {
      for (const [name, part] of Object.entries(asObject(node[key])))
        visit(part, `${at}/${key}/${escapePointerToken(name)}`);
    }
    visiting.delete(node);
  };
  visit(schema, "");
  return found;
}
