import { describe, expect, it } from "vitest";
import { checkExamples } from "../support/example-violations.ts";
import { isObject, loadBundledSpec, type SpecDocument } from "../support/spec-document.ts";

const spec = loadBundledSpec();

describe("examples in the spec", () => {
  const report = checkExamples(spec);

  it("all validate against their schemas (ajv, JSON Schema 2020-12, formats asserted)", () => {
    expect(report.violations).toEqual([]);
  });

  it("include every named example under components/examples", () => {
    const components = spec.components as Record<string, unknown>;
    const declared = Object.keys(isObject(components.examples) ? components.examples : {}).sort();
    expect(declared.length).toBeGreaterThan(0);
    expect([...report.componentExamplesChecked].sort()).toEqual(declared);
  });

  it("include an example for every component schema that describes an object", () => {
    const schemas =
      (spec.components as Record<string, Record<string, Record<string, unknown>>>).schemas ?? {};
    const withoutExamples = Object.entries(schemas)
      .filter(([, schema]) => schema.type === "object" && !Array.isArray(schema.examples))
      .map(([name]) => name);
    expect(withoutExamples).toEqual([]);
  });
});

describe("the example checker", () => {
  const spec: SpecDocument = {
    openapi: "3.1.0",
    components: {
      schemas: {
        Amount: { type: "string", pattern: "^\\d+(\\.\\d+)?$", examples: ["12.50", "12,50"] },
        Payment: {
          type: "object",
          required: ["amount"],
          properties: { amount: { $ref: "#/components/schemas/Amount" } },
        },
      },
      examples: { BrokenPayment: { summary: "broken", value: { amount: 12.5 } } },
    },
    paths: {
      "/payments": {
        post: {
          parameters: [
            { name: "at", in: "query", schema: { type: "string", format: "date" }, example: "tomorrow" },
          ],
          requestBody: {
            content: {
              "application/json": {
                schema: { $ref: "#/components/schemas/Payment" },
                examples: {
                  broken: { $ref: "#/components/examples/BrokenPayment" },
                  good: { value: { amount: "1" } },
                },
              },
            },
          },
        },
      },
    },
  };

  it("reports each invalid example with its location, and only those", () => {
    const report = checkExamples(spec);
    expect(report.violations.map((violation) => violation.location).sort()).toEqual([
      "/components/schemas/Amount/examples/1",
      "/paths/~1payments/post/parameters/0/example",
      "/paths/~1payments/post/requestBody/content/application~1json/examples/broken",
    ]);
    expect(report.checked).toBe(5);
    expect([...report.componentExamplesChecked]).toEqual(["BrokenPayment"]);
  });
});
