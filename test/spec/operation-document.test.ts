import { OpenAPISchemaValidator } from "express-openapi-validator/dist/framework/openapi.schema.validator.js";
import { describe, expect, it } from "vitest";
import { operationDocument } from "../../src/spec/operation-document.ts";
import { readPathOperations, type SpecOperation } from "../../src/spec/operations.ts";
import { getAtPointer, loadBundledSpec, type SpecDocument } from "../../src/spec/spec-document.ts";

const spec = loadBundledSpec();
const operationNamed = (operationId: string, document: SpecDocument = spec): SpecOperation => {
  const found = readPathOperations(document).find((operation) => operation.operationId === operationId);
  if (!found) throw new Error(`no operation ${operationId}`);
  return found;
};

/** Every `$ref` string under a node. */
function referencesIn(node: unknown): string[] {
  if (Array.isArray(node)) return node.flatMap(referencesIn);
  if (node === null || typeof node !== "object") return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === "$ref" && typeof value === "string" ? [value] : referencesIn(value),
  );
}

describe("the bundled spec, as the server's validator reads it", () => {
  it("is a valid OpenAPI 3.1 document by the validator's own meta-schema, which the server no longer runs at start", () => {
    const validator = new OpenAPISchemaValidator({ version: String(spec.openapi), validateApiSpec: true });
    expect(validator.validate(spec as never).errors).toEqual([]);
  });
});

describe("operationDocument", () => {
  it("holds the one operation, with its references resolved and no examples", () => {
    const document = operationDocument(spec, operationNamed("createSecurePayment"));
    expect(Object.keys(document.paths as object)).toEqual(["/v2/secure-payments"]);
    const item = (document.paths as Record<string, Record<string, unknown>>)["/v2/secure-payments"];
    expect(Object.keys(item ?? {})).toEqual(["post"]);
    expect(referencesIn(document)).toEqual([]);
    expect(JSON.stringify(document)).not.toMatch(/"examples?":/);
    expect(document.webhooks).toBeUndefined();
    expect(document.components).toEqual({
      schemas: {},
      securitySchemes: (spec.components as Record<string, unknown>).securitySchemes,
    });
  });

  it("keeps a $ref's constraints beside it, and its annotations not at all", () => {
    const source: SpecDocument = {
      openapi: "3.1.0",
      paths: {
        "/things": {
          post: {
            operationId: "createThing",
            requestBody: {
              content: {
                "application/json": {
                  schema: {
                    type: "object",
                    properties: {
                      label: { $ref: "#/components/schemas/Label", description: "Shown to people." },
                      code: { $ref: "#/components/schemas/Label", maxLength: 3 },
                      examples: { $ref: "#/components/schemas/Label" },
                    },
                    examples: [{ label: "x" }],
                  },
                },
              },
            },
            responses: { "204": { description: "Created." } },
          },
        },
      },
      components: { schemas: { Label: { type: "string", enum: [{ $ref: "not a reference" }, "a"] } } },
    };
    const document = operationDocument(source, operationNamed("createThing", source));
    const schema = getAtPointer(
      document,
      "/paths/~1things/post/requestBody/content/application~1json/schema",
    );
    const label = { type: "string", enum: [{ $ref: "not a reference" }, "a"] };
    expect(schema).toEqual({
      type: "object",
      properties: { label, code: { maxLength: 3, allOf: [label] }, examples: label },
    });
  });

  it("leaves a schema that contains itself as a reference into components/schemas", () => {
    const source: SpecDocument = {
      openapi: "3.1.0",
      paths: {
        "/trees": {
          get: {
            operationId: "getTree",
            responses: {
              "200": {
                description: "A tree.",
                content: { "application/json": { schema: { $ref: "#/components/schemas/Tree" } } },
              },
            },
          },
        },
      },
      components: {
        schemas: {
          Tree: {
            type: "object",
            properties: { children: { type: "array", items: { $ref: "#/components/schemas/Tree" } } },
          },
        },
      },
    };
    const document = operationDocument(source, operationNamed("getTree", source));
    const tree = {
      type: "object",
      properties: { children: { type: "array", items: { $ref: "#/components/schemas/Tree" } } },
    };
    expect((document.components as Record<string, unknown>).schemas).toEqual({ Tree: tree });
    expect(
      getAtPointer(document, "/paths/~1trees/get/responses/200/content/application~1json/schema"),
    ).toEqual(tree);
  });

  it("gives each call its own objects, which the validator may change", () => {
    const operation = operationNamed("listCurrencies");
    expect(operationDocument(spec, operation)).toEqual(operationDocument(spec, operation));
    expect(operationDocument(spec, operation).paths).not.toBe(operationDocument(spec, operation).paths);
  });
});
