import { describe, expect, it } from "vitest";
import { readPathOperations, type SpecOperation } from "../../src/spec/operations.ts";
import { isObject, type JsonObject, loadBundledSpec, resolveNode } from "../../src/spec/spec-document.ts";

const spec = loadBundledSpec();
const resolve = (node: unknown) => resolveNode(spec, node) as JsonObject;
const pathOperations = readPathOperations(spec);

/**
 * The error statuses an operation can answer, from its shape (openapi/README.md, "Errors"). Every
 * operation can answer 400: unknown query parameters are refused even where none are documented;
 * every one that needs a credential can answer 401.
 */
function expectedErrorStatuses(operation: SpecOperation): string[] {
  return [
    "400",
    ...(operation.acceptsAnonymous ? [] : ["401"]),
    ...(operation.acceptsClientId ? ["403"] : []),
    ...(operation.pathParams.length > 0 ? ["404"] : []),
    ...(operation.body ? ["413", "415"] : []),
    "429",
    "500",
    "503",
  ];
}

describe.each(pathOperations)("$operationId ($method $key)", (entry) => {
  const responses = entry.operation.responses as JsonObject;

  it("documents every error status it can answer", () => {
    const documented = Object.keys(responses).filter((status) => Number(status) >= 400);
    for (const status of expectedErrorStatuses(entry)) expect(documented).toContain(status);
  });

  it("answers every error as Problem Details, with examples; the service's own body is its alternative", () => {
    for (const [status, raw] of Object.entries(responses)) {
      if (Number(status) < 400) continue;
      const response = resolve(raw);
      const content = response.content as JsonObject;
      const [first, ...others] = Object.keys(content);
      // Only an answer the reference server never gives (the service's own 423) goes without a Problem.
      if (first === "application/json") {
        expect(String(response.description), status).toMatch(/^The real service only/);
      } else {
        expect(first, status).toBe("application/problem+json");
        expect((content[first ?? ""] as JsonObject).schema, status).toEqual({
          $ref: "#/components/schemas/Problem",
        });
      }
      expect(
        others.filter((type) => type !== "application/json"),
        status,
      ).toEqual([]);
      if ("application/json" in content) {
        expect((content["application/json"] as JsonObject).schema, status).toEqual({
          $ref: "#/components/schemas/ServiceError",
        });
      }
      for (const mediaType of Object.values(content) as JsonObject[]) {
        expect(isObject(mediaType.examples) && Object.keys(mediaType.examples).length > 0, status).toBe(true);
      }
    }
  });

  it("documents the service's own error body wherever the real service answers this operation", () => {
    if (entry.key.startsWith("/sandbox/")) return;
    for (const [status, raw] of Object.entries(responses)) {
      if (Number(status) < 400) continue;
      expect(Object.keys(resolve(raw).content as JsonObject), status).toContain("application/json");
    }
  });

  it("sends Retry-After with 429 and 503, and X-Request-Id with every answer", () => {
    for (const status of ["429", "503"]) {
      const retryLater = resolve(responses[status]);
      expect(resolve((retryLater.headers as JsonObject)["Retry-After"]).required, status).toBe(true);
    }
    for (const [status, raw] of Object.entries(responses)) {
      expect(Object.keys((resolve(raw).headers ?? {}) as JsonObject), status).toContain("X-Request-Id");
    }
  });
});

describe("the Problem schema", () => {
  const problem = resolve({ $ref: "#/components/schemas/Problem" });

  it("has the RFC 9457 members and the compatibility members clients already read", () => {
    expect(problem.required).toEqual(["type", "title", "status", "detail", "statusCode", "error", "message"]);
    expect(Object.keys(problem.properties as JsonObject)).toEqual(
      expect.arrayContaining([
        "type",
        "title",
        "status",
        "detail",
        "instance",
        "statusCode",
        "error",
        "message",
        "errors",
      ]),
    );
  });
});
