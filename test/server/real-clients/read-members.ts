import type { MemberType } from "./client-calls.ts";

/** A member that is not there, told apart from a member whose value is `undefined`. */
const absent = Symbol("absent");

/**
 * The values at a member path of a JSON value: `a.b` one value, `list[].member` one per item,
 * `list[0].member` the first item's, `[]` the items of a top-level list. An absent member gives
 * `absent`.
 */
function valuesAt(value: unknown, path: string): unknown[] {
  let values: unknown[] = [value];
  for (const step of path.split(".")) {
    const [, name = "", index] = /^([^[]*)(?:\[(\d*)\])?$/.exec(step) ?? [];
    values = values.flatMap((current) => {
      let next: unknown = current;
      if (name !== "") {
        next =
          current !== null && typeof current === "object" && !Array.isArray(current) && name in current
            ? (current as Record<string, unknown>)[name]
            : absent;
      }
      if (index === undefined || next === absent) return [next];
      if (!Array.isArray(next)) return [absent];
      return index === "" ? next : [index in next ? next[Number(index)] : absent];
    });
  }
  return values;
}

/** The values at a member path, an absent member as `undefined`. */
export function memberValues(value: unknown, path: string): unknown[] {
  return valuesAt(value, path).map((found) => (found === absent ? undefined : found));
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

/** How the values at a member path break the type the client reads it as: one issue per value. */
export function typeIssues(body: unknown, path: string, type: MemberType): string[] {
  const optional = type.endsWith("?");
  const allowed = type.replace(/\?$/, "").split("|");
  return valuesAt(body, path).flatMap((value) => {
    if (value === absent) return optional ? [] : [`${path} is missing (read as ${type})`];
    const actual = jsonType(value);
    return allowed.includes(actual)
      ? []
      : [`${path} is ${actual} (${JSON.stringify(value)}), read as ${type}`];
  });
}
