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

export interface UnknownMember {
  /** JSON Pointer of the member inside the value. */
  pointer: string;
  value: unknown;
}

/** What `screenByLimits` found, in one walk of the parts of a value that its limits reach. */
export interface LimitScreen {
  /** The arrays longer than their `maxItems`; the items of such an array are not looked at. */
  overlong: OverlongArray[];
  /**
   * Without `dropUnknown`: the first `listUnknown` members of closed objects that the schema does
   * not name, in value order, and how many there are in all. With it, none are looked for.
   */
  unknown: UnknownMember[];
  unknownTotal: number;
  /**
   * With `dropUnknown`, the value without those members: each closed object becomes a copy of its
   * named members, in the schema's order (arrays are changed in place). Else the value itself.
   */
  value: unknown;
}

/**
 * Walks `value` once along what `limits` bounds. Finding an array that is too long costs no more
 * for a million items than for a hundred and one. Dropping looks the schema's names up rather
 * than listing the object's: listing the names of an object of tens of thousands of members
 * costs V8 a sort of them all (30 ms for 85,000). Pointers are written only for what is found.
 */
export function screenByLimits(
  value: unknown,
  limits: BodyLimits,
  options: { dropUnknown: boolean; listUnknown: number },
): LimitScreen {
  const screen: LimitScreen = { overlong: [], unknown: [], unknownTotal: 0, value };
  const path: (string | number)[] = [];
  const pointer = (last?: string) =>
    [...path, ...(last === undefined ? [] : [last])]
      .map((token) => `/${typeof token === "number" ? token : escapePointerToken(token)}`)
      .join("");
  const visit = (node: unknown, below: BodyLimits): unknown => {
    if (Array.isArray(node)) {
      if (below.maxItems !== undefined && node.length > below.maxItems) {
        screen.overlong.push({ pointer: pointer(), maxItems: below.maxItems, length: node.length });
        return node;
      }
      const { items } = below;
      if (!items) return node;
      for (let index = 0; index < node.length; index++) {
        path.push(index);
        node[index] = visit(node[index], items);
        path.pop();
      }
      return node;
    }
    if (!isObject(node)) return node;
    const { names, properties } = below;
    let kept = node;
    if (names && options.dropUnknown) {
      kept = {};
      for (const name of names) if (Object.hasOwn(node, name)) kept[name] = node[name];
    } else if (names) {
      for (const name in node) {
        if (!Object.hasOwn(node, name) || names.has(name)) continue;
        screen.unknownTotal++;
        if (screen.unknown.length < options.listUnknown)
          screen.unknown.push({ pointer: pointer(name), value: node[name] });
      }
    }
    for (const [name, limitsBelow] of properties ?? []) {
      if (!Object.hasOwn(kept, name)) continue;
      path.push(name);
      kept[name] = visit(kept[name], limitsBelow);
      path.pop();
    }
    return kept;
  };
  screen.value = visit(value, limits);
  return screen;
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
