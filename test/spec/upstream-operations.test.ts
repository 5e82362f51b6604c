import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readPathOperations } from "../../src/spec/operations.ts";
import { isObject, type JsonObject, loadBundledSpec } from "../../src/spec/spec-document.ts";
import { describeUnless } from "../support/describe-unless.ts";
import { referenceFolder, referenceMissingReason, unnamedTemplate } from "../support/published-examples.ts";
import {
  authApi0_14_0,
  requestApi0_13_0,
  requestApi0_31_0,
  type UpstreamOperation,
} from "./upstream-operations.ts";

const spec = loadBundledSpec();
const served = new Map(
  readPathOperations(spec).map((operation) => [unnamedTemplate(operation.method, operation.key), operation]),
);
const keyOf = ([method, template]: UpstreamOperation) => unnamedTemplate(method, template);

/** The operations a published contract describes, as upstream-operations.ts writes them down. */
function readContract(file: string): UpstreamOperation[] {
  const document = JSON.parse(readFileSync(path.join(referenceFolder, file), "utf8")) as JsonObject;
  const found: UpstreamOperation[] = [];
  for (const [template, item] of Object.entries(document.paths as Record<string, JsonObject>)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!["get", "post", "put", "patch", "delete"].includes(method) || !isObject(operation)) continue;
      found.push([method as UpstreamOperation[0], template, String(operation.operationId)]);
    }
  }
  return found;
}

describeUnless(referenceMissingReason, "the published operation lists, as transcribed", () => {
  it.each([
    ["upstream-openapi.v2.json", requestApi0_13_0],
    ["upstream-openapi.0.31.0.json", requestApi0_31_0],
    ["upstream-auth-openapi.0.14.0.json", authApi0_14_0],
  ] as const)("%s", (file, transcribed) => {
    expect([...transcribed].sort()).toEqual(readContract(file).sort());
  });
});

describe("the service's operations in our spec", () => {
  it("serves every operation of Request API 0.31.0 with its method and path", () => {
    expect(requestApi0_31_0).toHaveLength(82);
    expect(requestApi0_31_0.map(keyOf).filter((key) => !served.has(key))).toEqual([]);
  });

  it("serves every operation of Auth API 0.14.0 with its method and path", () => {
    expect(authApi0_14_0).toHaveLength(26);
    expect(authApi0_14_0.map(keyOf).filter((key) => !served.has(key))).toEqual([]);
  });

  it("marks deprecated each 0.13.0 operation that 0.31.0 no longer publishes, naming what replaces it", () => {
    const current = new Set(requestApi0_31_0.map(keyOf));
    const dropped = requestApi0_13_0.map(keyOf).filter((key) => !current.has(key));
    expect(dropped).toHaveLength(6);
    for (const key of dropped) {
      const operation = served.get(key)?.operation;
      expect(operation?.deprecated, key).toBe(true);
      expect(String(operation?.description), key).toMatch(/\/v1\/payee-destination|removed/);
    }
  });

  it("serves no path of the service that the service does not publish (the /sandbox paths are ours)", () => {
    const published = new Set([...requestApi0_13_0, ...requestApi0_31_0, ...authApi0_14_0].map(keyOf));
    const unpublished = [...served.keys()].filter(
      (key) => !key.split(" ")[1]?.startsWith("/sandbox/") && !published.has(key),
    );
    expect(unpublished).toEqual([]);
  });

  it("shares no method and path between the Request API and the Auth API", () => {
    const request = new Set([...requestApi0_13_0, ...requestApi0_31_0].map(keyOf));
    expect(authApi0_14_0.map(keyOf).filter((key) => request.has(key))).toEqual([]);
  });
});
