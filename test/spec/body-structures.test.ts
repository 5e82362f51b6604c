import { describe, expect, it } from "vitest";
import { maxBodyDepth, maxBodyStructures } from "../../src/server/http/json-structure.ts";
import { readPathOperations } from "../../src/spec/operations.ts";
import {
  asObject,
  isObject,
  loadBundledSpec,
  resolveNode,
  type SpecDocument,
} from "../../src/spec/spec-document.ts";

/**
 * The most objects, arrays and members a valid value of `schema` can hold, with every member its
 * schema names present and every array at its `maxItems`: an upper bound (the members of `allOf`
 * parts are counted once per part). A schema that lets an object hold members it does not name
 * by a schema of their own, or an array without `maxItems`, has no bound: Infinity.
 */
function largestStructures(document: SpecDocument, schema: unknown, refs: readonly string[] = []): number {
  if (!isObject(schema)) return 0;
  if (typeof schema.$ref === "string") {
    if (refs.includes(schema.$ref)) return Number.POSITIVE_INFINITY;
    return largestStructures(document, resolveNode(document, { $ref: schema.$ref }), [...refs, schema.$ref]);
  }
  const below = (part: unknown) => largestStructures(document, part, refs);
  const branches = [
    ...(Array.isArray(schema.oneOf) ? schema.oneOf : []),
    ...(Array.isArray(schema.anyOf) ? schema.anyOf : []),
  ];
  let count = branches.length > 0 ? Math.max(...branches.map(below)) : 0;
  if (Array.isArray(schema.allOf)) for (const part of schema.allOf) count += below(part);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes("object") || schema.properties !== undefined) {
    if (schema.patternProperties !== undefined) return Number.POSITIVE_INFINITY;
    // A map of members named by the sender is bounded only by its `maxProperties`.
    if (isObject(schema.additionalProperties)) {
      if (typeof schema.maxProperties !== "number") return Number.POSITIVE_INFINITY;
      count += schema.maxProperties * (1 + below(schema.additionalProperties));
    }
    count += 1;
    for (const property of Object.values(asObject(schema.properties))) count += 1 + below(property);
  }
  if (types.includes("array") || schema.items !== undefined) {
    if (typeof schema.maxItems !== "number") return Number.POSITIVE_INFINITY;
    count += 1 + schema.maxItems * below(schema.items);
  }
  return count;
}

describe("the limit on a body's objects, arrays and members", () => {
  it("counts what the spec's largest valid bodies hold", () => {
    const document: SpecDocument = {
      components: {
        schemas: {
          Item: {
            type: "object",
            properties: { a: {}, b: { type: "array", maxItems: 2, items: { type: "object" } } },
          },
        },
      },
    };
    const list = {
      type: "object",
      properties: { items: { type: "array", maxItems: 3, items: { $ref: "#/components/schemas/Item" } } },
    };
    // The outer object, its member, the array, and 3 items of 1 + 2 members + 1 array + 2 objects.
    expect(largestStructures(document, list)).toBe(1 + 1 + 1 + 3 * 6);
    expect(largestStructures(document, { type: "array", items: {} })).toBe(Number.POSITIVE_INFINITY);
    expect(largestStructures(document, { type: "object", additionalProperties: { type: "string" } })).toBe(
      Number.POSITIVE_INFINITY,
    );
    const map = { type: "object", maxProperties: 4, additionalProperties: { type: "array", maxItems: 2 } };
    // The object, and 4 members each holding an array of 2 items that hold nothing.
    expect(largestStructures(document, map)).toBe(1 + 4 * (1 + 1));
  });

  it("is more than ten times what the largest valid body of any operation holds", () => {
    const spec = loadBundledSpec();
    const largest = readPathOperations(spec)
      .filter((operation) => operation.body)
      .map((operation) => ({
        operationId: operation.operationId,
        structures: largestStructures(spec, operation.body?.schema),
      }))
      .sort((one, other) => other.structures - one.structures);
    // The intents of 100 payouts of a multicall link; a wallet's 100 balances and 100 allowances.
    expect(largest.slice(0, 2)).toEqual([
      { operationId: "recordMulticallPayoutIntent", structures: 806 },
      { operationId: "setSandboxWallet", structures: 706 },
    ]);
    expect((largest[0]?.structures ?? Number.POSITIVE_INFINITY) * 10).toBeLessThan(maxBodyStructures);
  });

  it("is the one the spec's table of limits gives, with the nesting limit", () => {
    const description = String(asObject(loadBundledSpec().info).description);
    const rows = description.split("\n").filter((line) => line.startsWith("| "));
    const thousands = (value: number) => value.toLocaleString("en").replace(",", " ");
    expect(rows).toContain(
      `| objects, arrays and object members in a body, counted at every depth | ${thousands(maxBodyStructures)} (the largest valid body holds about 800) | \`400\` naming the body's largest array or object, before any of it is parsed |`,
    );
    expect(rows).toContain(
      `| nesting of arrays and objects in a body | ${maxBodyDepth} levels | \`400\` naming \`/body\` |`,
    );
  });
});
