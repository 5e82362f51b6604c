import { describe, expect, it } from "vitest";
import {
  type BodyLimits,
  fillArrays,
  findUnboundedArrays,
  readBodyLimits,
  screenByLimits,
} from "../../src/spec/body-limits.ts";
import { readPathOperations } from "../../src/spec/operations.ts";
import { loadBundledSpec, type SpecDocument } from "../../src/spec/spec-document.ts";

const document: SpecDocument = {
  components: {
    schemas: {
      Items: { type: "array", maxItems: 3, items: { $ref: "#/components/schemas/Item" } },
      Item: { type: "object", properties: { tags: { type: "array", maxItems: 2 } } },
      Tree: {
        type: "object",
        properties: { children: { type: "array", items: { $ref: "#/components/schemas/Tree" } } },
      },
    },
  },
};

describe("readBodyLimits", () => {
  it("follows $ref, properties, items and allOf, keeping the smallest maxItems", () => {
    const limits = readBodyLimits(document, {
      type: "object",
      properties: { list: { allOf: [{ $ref: "#/components/schemas/Items" }, { maxItems: 2 }] } },
    });
    expect(limits).toEqual({
      properties: new Map([
        ["list", { maxItems: 2, items: { properties: new Map([["tags", { maxItems: 2 }]]) } }],
      ]),
    });
  });

  it("ignores oneOf and anyOf branches, which a valid value need not meet", () => {
    expect(
      readBodyLimits(document, { oneOf: [{ type: "array", maxItems: 1 }, { type: "string" }] }),
    ).toBeUndefined();
    expect(readBodyLimits(document, { anyOf: [{ type: "array", maxItems: 1 }] })).toBeUndefined();
  });

  it("reads the names a closed object allows, only those every closed part allows", () => {
    const closed = { type: "object", additionalProperties: false, properties: { a: {}, b: {} } };
    expect(readBodyLimits(document, closed)).toEqual({ names: new Set(["a", "b"]) });
    const both = { allOf: [closed, { additionalProperties: false, properties: { b: {}, c: {} } }] };
    expect(readBodyLimits(document, both)).toEqual({ names: new Set(["b"]) });
    expect(readBodyLimits(document, { ...closed, patternProperties: { "^x-": {} } })).toBeUndefined();
    expect(readBodyLimits(document, { type: "object", properties: { a: {} } })).toBeUndefined();
  });

  it("ends on a recursive schema that bounds nothing", () => {
    expect(readBodyLimits(document, { $ref: "#/components/schemas/Tree" })).toBeUndefined();
  });

  it("reads the spec's 100-item limits of a secure payment and a batch payout", () => {
    const spec = loadBundledSpec();
    const bodyOf = (operationId: string) =>
      readPathOperations(spec).find((operation) => operation.operationId === operationId)?.body?.schema;
    expect(readBodyLimits(spec, bodyOf("createSecurePayment"))?.properties?.get("requests")?.maxItems).toBe(
      100,
    );
    const batch = readBodyLimits(spec, bodyOf("createBatchPayout"));
    expect(batch?.properties?.get("requests")?.maxItems).toBe(100);
    expect(batch?.properties?.get("requestIds")?.maxItems).toBe(100);
  });
});

const overlongOf = (value: unknown, limits: BodyLimits) =>
  screenByLimits(value, limits, { dropUnknown: false, listUnknown: 0 }).overlong;

describe("screenByLimits: overlong arrays", () => {
  const limits = readBodyLimits(document, {
    type: "object",
    properties: { list: { $ref: "#/components/schemas/Items" }, "a/b": { type: "array", maxItems: 0 } },
  });

  it("names each array over its limit with its length, and nothing within limits", () => {
    if (!limits) throw new Error("limits expected");
    expect(overlongOf({ list: [{ tags: [1, 2] }, {}] }, limits)).toEqual([]);
    expect(overlongOf({ list: [{}, { tags: [1, 2, 3] }], "a/b": [1] }, limits)).toEqual([
      { pointer: "/list/1/tags", maxItems: 2, length: 3 },
      { pointer: "/a~1b", maxItems: 0, length: 1 },
    ]);
  });

  it("does not look into the items of an array that is too long", () => {
    if (!limits) throw new Error("limits expected");
    const items = new Array(1_000_000).fill({ tags: [1, 2, 3] });
    expect(overlongOf({ list: items }, limits)).toEqual([
      { pointer: "/list", maxItems: 3, length: 1_000_000 },
    ]);
  });

  it("leaves values of another type to the validator", () => {
    if (!limits) throw new Error("limits expected");
    expect(overlongOf({ list: "not an array" }, limits)).toEqual([]);
    expect(overlongOf([1, 2, 3], limits)).toEqual([]);
  });
});

describe("findUnboundedArrays", () => {
  it("names arrays without maxItems along properties, items and combinators, but not under not", () => {
    expect(
      findUnboundedArrays(document, {
        type: "object",
        properties: {
          bounded: { $ref: "#/components/schemas/Items" },
          open: { type: "array", items: { type: "array", maxItems: 1 } },
          either: { oneOf: [{ type: ["array", "null"] }, { type: "string" }] },
        },
        not: { properties: { bounded: { type: "array" } } },
      }),
    ).toEqual(["/properties/open", "/properties/either/oneOf/0"]);
  });

  it("finds none in any request body of the spec: every list a client sends has a maxItems", () => {
    const spec = loadBundledSpec();
    const unbounded = readPathOperations(spec).flatMap((operation) =>
      findUnboundedArrays(spec, operation.body?.schema).map((place) => `${operation.operationId} ${place}`),
    );
    expect(unbounded).toEqual([]);
  });
});

describe("screenByLimits: unknown members, listed", () => {
  const limits = readBodyLimits(document, {
    type: "object",
    additionalProperties: false,
    properties: {
      list: { type: "array", items: { type: "object", additionalProperties: false, properties: { ok: {} } } },
    },
  });

  it("lists the first members closed objects do not name, in body order, and counts them all", () => {
    if (!limits) throw new Error("limits expected");
    const body = {
      list: [
        { ok: 1, x: 2 },
        { "a/b": 3, y: [4] },
      ],
      extra: true,
    };
    const found = screenByLimits(body, limits, { dropUnknown: false, listUnknown: 3 });
    expect(found).toEqual({
      overlong: [],
      unknown: [
        { pointer: "/extra", value: true },
        { pointer: "/list/0/x", value: 2 },
        { pointer: "/list/1/a~1b", value: 3 },
      ],
      unknownTotal: 4,
      value: body,
    });
    expect(screenByLimits({ list: [{ ok: 1 }] }, limits, { dropUnknown: false, listUnknown: 3 })).toEqual({
      overlong: [],
      unknown: [],
      unknownTotal: 0,
      value: { list: [{ ok: 1 }] },
    });
  });
});

const withoutUnknownMembers = (value: unknown, limits: BodyLimits) =>
  screenByLimits(value, limits, { dropUnknown: true, listUnknown: 0 }).value;

describe("screenByLimits: unknown members, dropped", () => {
  const limits = readBodyLimits(document, {
    type: "object",
    additionalProperties: false,
    properties: {
      list: {
        type: "array",
        items: {
          type: "object",
          additionalProperties: false,
          properties: { ok: {}, open: { type: "object" } },
        },
      },
      name: { type: "string" },
    },
  });

  it("keeps only the named members of closed objects, in the schema's order, at every depth the limits reach", () => {
    if (!limits) throw new Error("limits expected");
    const body = JSON.parse(
      '{"extra":1,"list":[{"x":2,"open":{"any":3},"ok":4,"__proto__":{"polluted":true}},{"ok":5}],"name":"n","more":[6]}',
    );
    const kept = withoutUnknownMembers(body, limits) as Record<string, unknown>;
    expect(JSON.stringify(kept)).toBe('{"list":[{"ok":4,"open":{"any":3}},{"ok":5}],"name":"n"}');
    expect(Object.getPrototypeOf((kept.list as object[])[0])).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it("keeps a body without unknown members as it is, and leaves values of another type to the validator", () => {
    if (!limits) throw new Error("limits expected");
    const clean = { list: [{ ok: 1 }], name: "n" };
    expect(withoutUnknownMembers(clean, limits)).toEqual({ list: [{ ok: 1 }], name: "n" });
    expect(withoutUnknownMembers("text", limits)).toBe("text");
    expect(withoutUnknownMembers({ list: "not a list", x: 1 }, limits)).toEqual({ list: "not a list" });
  });
});

describe("fillArrays", () => {
  it("fills every bounded array to its maxItems with its own items in turn, and changes nothing else", () => {
    const limits = readBodyLimits(document, {
      type: "object",
      properties: { list: { $ref: "#/components/schemas/Items" }, note: { type: "string" } },
    });
    if (!limits) throw new Error("the schema bounds its list");
    const value = { list: [{ tags: ["a"] }, { tags: [] }], note: "kept" };
    expect(fillArrays(value, limits)).toEqual({
      list: [{ tags: ["a", "a"] }, { tags: [] }, { tags: ["a", "a"] }],
      note: "kept",
    });
    expect(value).toEqual({ list: [{ tags: ["a"] }, { tags: [] }], note: "kept" });
  });

  it("gives a batch payout example 100 requests, the most the spec allows", () => {
    const spec = loadBundledSpec();
    const batch = readPathOperations(spec).find((operation) => operation.operationId === "createBatchPayout");
    const limits = batch?.body && readBodyLimits(spec, batch.body.schema);
    if (!limits) throw new Error("createBatchPayout has a bounded body");
    const filled = fillArrays({ requests: [{ amount: "1" }, { amount: "2" }], payer: "0x1" }, limits) as {
      requests: { amount: string }[];
      payer: string;
    };
    expect(filled.requests).toHaveLength(100);
    expect(filled.requests.slice(0, 3).map((item) => item.amount)).toEqual(["1", "2", "1"]);
    expect(filled.payer).toBe("0x1");
  });
});
