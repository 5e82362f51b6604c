import { describe, expect, it } from "vitest";
import { sampleSchema } from "../../src/spec/schema-sample.ts";

const document = {
  components: {
    schemas: {
      Amount: { type: "string", pattern: "^[0-9]+$", examples: ["125.00"] },
      Node: { type: "object", properties: { next: { $ref: "#/components/schemas/Node" } } },
    },
  },
};

describe("sampleSchema", () => {
  it("builds the same value at every call, as Prism's static generation does", () => {
    const schema = {
      type: "object",
      properties: {
        amount: { $ref: "#/components/schemas/Amount" },
        status: { type: "string", enum: ["pending", "paid"] },
        createdAt: { type: "string", format: "date-time" },
        label: { type: "string" },
        count: { type: "integer", minimum: 1 },
        ratio: { type: "number" },
        active: { type: "boolean" },
        note: { type: ["string", "null"], default: null },
        memo: { type: "null" },
        tags: { type: "array", items: { type: "string" } },
        kind: { const: "invoice" },
        either: { oneOf: [{ type: "integer" }, { type: "string" }] },
        merged: {
          allOf: [{ properties: { a: { type: "integer" } } }, { properties: { b: { type: "boolean" } } }],
        },
      },
    };
    const expected = {
      amount: "125.00",
      status: "pending",
      createdAt: "2026-01-01T00:00:00Z",
      label: "string",
      count: 1,
      ratio: 0,
      active: true,
      note: null,
      memo: null,
      tags: ["string"],
      kind: "invoice",
      either: 0,
      merged: { a: 0, b: true },
    };
    expect(sampleSchema(document, schema)).toEqual(expected);
    expect(sampleSchema(document, schema)).toEqual(expected);
  });

  it("ends a recursive schema with an empty object", () => {
    let depth = 0;
    let node = sampleSchema(document, { $ref: "#/components/schemas/Node" }) as { next?: unknown };
    while (node.next !== undefined) {
      node = node.next as { next?: unknown };
      depth++;
    }
    expect(depth).toBe(8);
  });
});
