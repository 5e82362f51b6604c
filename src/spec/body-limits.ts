import { asObject, escapePointerToken, isObject, resolveNode, type SpecDocument } from "./spec-document.ts";

/**
 * What a schema bounds by size alone, found without checking any value: the length of arrays
 * (`maxItems`), the names an object may have (`additionalProperties: false` beside `properties`),
 * and those limits below, along `properties` and `items`. Only constraints every valid value must
 * meet are followed (`$ref`, `allOf`); the branches of `oneOf` and `anyOf` are not.
 */
export interface BodyLimits {
  maxItems?: number;
  /** The only member names an object may have. */
  names?: Set<string>;
  items?: BodyLimits;
  properties?: Map<string, BodyLimits>;
}

function merge(into: BodyLimits, from: BodyLimits | undefined): void {
  if (!from) return;
  if (from.maxItems !== undefined) into.maxItems = Math.min(into.maxItems ?? from.maxItems, from.maxItems);
  // A value must meet every part: only the names all closed parts allow are allowed.
  if (from.names)
    into.names = into.names ? new Set([...into.names].filter((name) => from.names?.has(name))) : from.names;
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

const isEmpty = (limits: BodyLimits) =>
  limits.maxItems === undefined &&
  limits.names === undefined &&
  limits.items === undefined &&
  limits.properties === undefined;

/** The limits of `schema`; undefined when it bounds nothing. A recursive schema is followed once. */
export function readBodyLimits(document: SpecDocument, schema: unknown): BodyLimits | undefined {
  const visiting = new Set<unknown>();
  const read = (node: unknown): BodyLimits | undefined => {
    if (!isObject(node) || visiting.has(node)) return undefined;
    visiting.add(node);
    const limits: BodyLimits = {};
    if (typeof node.maxItems === "number") limits.maxItems = node.maxItems;
    if (node.additionalProperties === false && node.patternProperties === undefined) {
      limits.names = new Set(Object.keys(asObject(node.properties)));
    }
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
 * not looked at: finding it costs no more for a million items than for a hundred and one. The
 * path to each array is kept as a list of tokens and written as a pointer only for one that is
 * found: every request body is looked at, and nearly none has an array too long.
 */
export function findOverlongArrays(value: unknown, limits: BodyLimits): OverlongArray[] {
  const found: OverlongArray[] = [];
  const path: (string | number)[] = [];
  const pointer = () =>
    path.map((token) => `/${typeof token === "number" ? token : escapePointerToken(token)}`).join("");
  const visit = (node: unknown, below: BodyLimits) => {
    if (Array.isArray(node)) {
      if (below.maxItems !== undefined && node.length > below.maxItems) {
        found.push({ pointer: pointer(), maxItems: below.maxItems, length: node.length });
        return;
      }
      const { items } = below;
      if (!items) return;
      for (let index = 0; index < node.length; index++) {
        path.push(index);
        visit(node[index], items);
        path.pop();
      }
      return;
    }
    if (!below.properties || !isObject(node)) return;
    for (const [name, limits] of below.properties) {
      if (!Object.hasOwn(node, name)) continue;
      path.push(name);
      visit(node[name], limits);
      path.pop();
    }
  };
  visit(value, limits);
  return found;
}

export interface UnknownMembers {
  /** The first `listed` members of closed objects that the schema does not name, in body order. */
  listed: { pointer: string; value: unknown }[];
  /** How many there are in all. */
  total: number;
}

/**
 * The members of `value`'s closed objects that their schema does not name: the first `listed` of
 * them, and their number. Counting costs a lookup per member, where the validator makes an error
 * of each.
 */
export function findUnknownMembers(value: unknown, limits: BodyLimits, listed: number): UnknownMembers {
  const found: UnknownMembers = { listed: [], total: 0 };
  const visit = (node: unknown, below: BodyLimits, pointer: string) => {
    if (Array.isArray(node)) {
      const { items } = below;
      if (items) for (const [index, item] of node.entries()) visit(item, items, `${pointer}/${index}`);
      return;
    }
    if (!isObject(node)) return;
    const { names, properties } = below;
    if (names) {
      for (const name of Object.keys(node)) {
        if (names.has(name)) continue;
        found.total++;
        if (found.listed.length < listed)
          found.listed.push({ pointer: `${pointer}/${escapePointerToken(name)}`, value: node[name] });
      }
    }
    for (const [name, limits] of properties ?? []) {
      if (Object.hasOwn(node, name)) visit(node[name], limits, `${pointer}/${escapePointerToken(name)}`);
    }
  };
  visit(value, limits, "");
  return found;
}

/**
 * `value` without the members of its closed objects that their schema does not name: each closed
 * object becomes a copy of its named members, in the schema's order; everything else is kept as
 * it is. The names are looked up, not listed: listing the names of an object of tens of thousands
 * of members costs V8 a sort of them all (30 ms for 85,000), and the validator's
 * `removeAdditional` would drop them one `delete` at a time.
 */
export function withoutUnknownMembers(value: unknown, limits: BodyLimits): unknown {
  if (Array.isArray(value)) {
    const { items } = limits;
    if (items)
      for (let index = 0; index < value.length; index++)
        value[index] = withoutUnknownMembers(value[index], items);
    return value;
  }
  if (!isObject(value)) return value;
  const { names, properties } = limits;
  let kept = value;
  if (names) {
    kept = {};
    for (const name of names) if (Object.hasOwn(value, name)) kept[name] = value[name];
  }
  for (const [name, below] of properties ?? []) {
    if (Object.hasOwn(kept, name)) kept[name] = withoutUnknownMembers(kept[name], below);
  }
  return kept;
}

/**
 * A copy of `value` whose arrays with a `maxItems` hold that many items, their own items repeated
 * in turn: the largest body of the shape of `value` that its limits allow. Arrays without items
 * stay empty.
 */
export function fillArrays(value: unknown, limits: BodyLimits): unknown {
  if (Array.isArray(value)) {
    const { items, maxItems } = limits;
    const filled =
      maxItems !== undefined && value.length > 0
        ? Array.from({ length: maxItems }, (_, index) => value[index % value.length])
        : value;
    return items ? filled.map((item) => fillArrays(item, items)) : [...filled];
  }
  if (!isObject(value)) return value;
  const copy: Record<string, unknown> = { ...value };
  for (const [name, below] of limits.properties ?? []) {
    if (Object.hasOwn(copy, name)) copy[name] = fillArrays(copy[name], below);
  }
  return copy;
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
