import { describe, expect, it } from "vitest";
import { readOperations } from "../../src/spec/operations.ts";
import {
  isObject,
  type JsonObject,
  loadBundledSpec,
  resolveNode,
  type SpecDocument,
} from "../../src/spec/spec-document.ts";
import { checkExamples } from "../support/example-violations.ts";

const spec = loadBundledSpec();

/** Every JSON request body and JSON answer of the document's operations and webhooks. */
function mediaTypes(document: SpecDocument): { location: string; mediaType: JsonObject }[] {
  const found: { location: string; mediaType: JsonObject }[] = [];
  for (const { key, method, operation } of readOperations(document)) {
    const bodies: [string, unknown][] = [["request body", operation.requestBody]];
    for (const [status, response] of Object.entries((operation.responses ?? {}) as JsonObject)) {
      bodies.push([status, response]);
    }
    for (const [label, rawBody] of bodies) {
      const body = resolveNode(document, rawBody);
      if (!isObject(body) || !isObject(body.content)) continue;
      for (const [type, mediaType] of Object.entries(body.content)) {
        if (type.endsWith("json") && isObject(mediaType)) {
          found.push({ location: `${method} ${key} ${label} ${type}`, mediaType });
        }
      }
    }
  }
  return found;
}

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

  it("include a named example for every request body and every JSON answer", () => {
    const withoutNamedExamples = mediaTypes(spec)
      .filter(
        ({ mediaType }) => !isObject(mediaType.examples) || Object.keys(mediaType.examples).length === 0,
      )
      .map(({ location }) => location);
    expect(withoutNamedExamples).toEqual([]);
  });

  // Prism answers with a body schema's own `examples` ahead of the named ones, which would make
  // the mock answer a 400 with the 404 example: named examples are the only examples of a body.
  it("leave body schemas without schema-level examples, so the mock serves the named ones", () => {
    const shadowing = mediaTypes(spec)
      .filter(({ mediaType }) => {
        const schema = resolveNode(spec, mediaType.schema);
        return isObject(schema) && "examples" in schema;
      })
      .map(({ location }) => location);
    expect(shadowing).toEqual([]);
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
