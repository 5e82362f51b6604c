import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { httpMethods, readPathOperations } from "../../src/spec/operations.ts";
import { asObject, isObject, type JsonObject, loadBundledSpec } from "../../src/spec/spec-document.ts";
import { authApiPathTemplates, isAuthApiPath } from "../../src/wire/auth-api-paths.ts";
import { referenceFolder, referenceMissingReason, unnamedTemplate } from "../support/published-examples.ts";

// The Auth API (auth.request.network) is described in the same document as the Request API: its
// path items carry their own `servers`, and the reference server answers both on one origin,
// which works only while no method and path belongs to both.

const spec = loadBundledSpec();
const authHost = "https://auth.request.network";

const isAuthPath = (item: unknown) =>
  isObject(item) &&
  Array.isArray(item.servers) &&
  item.servers.some((server) => asObject(server).url === authHost);

const paths = asObject(spec.paths);
const authPaths = Object.keys(paths).filter((key) => isAuthPath(paths[key]));
const operations = readPathOperations(spec);
const authOperations = operations.filter((operation) => authPaths.includes(operation.key));
const requestApiOperations = operations.filter((operation) => !authPaths.includes(operation.key));

function methodsAndPaths(document: JsonObject): string[] {
  return Object.entries(asObject(document.paths)).flatMap(([template, item]) =>
    httpMethods
      .filter((method) => isObject(asObject(item)[method]))
      .map((method) => unnamedTemplate(method, template)),
  );
}

const readReference = (file: string) =>
  JSON.parse(readFileSync(path.join(referenceFolder, file), "utf8")) as JsonObject;

describe("the Auth API in the one spec", () => {
  it("names its own server on each of its path items, beside the local sandbox and the mock", () => {
    expect(authPaths.sort()).toEqual([
      "/v1/auth/login",
      "/v1/auth/logout",
      "/v1/auth/register",
      "/v1/auth/wallet/challenge",
      "/v1/auth/wallet/verify",
      "/v1/client-id-links/intents/{token}",
      "/v1/client-id-links/{clientIdId}/kyt",
      "/v1/client-ids",
      "/v1/client-ids/{id}",
      "/v1/health",
      "/v1/payee-destination",
      "/v1/payee-destination/deactivate",
      "/v1/payee-destination/lookup",
      "/v1/payee-destination/payout-lookup",
      "/v1/payee-destination/wallet-change/cancel",
      "/v1/webhook",
      "/v1/webhook/test",
      "/v1/webhook/{webhookId}",
    ]);
    for (const key of authPaths) {
      expect(
        (asObject(paths[key]).servers as JsonObject[]).map((server) => server.url),
        key,
      ).toEqual(["http://127.0.0.1:3000", "http://127.0.0.1:4010", authHost]);
    }
  });

  it("is the list the client routes to the Auth API's base URL", () => {
    expect([...authApiPathTemplates].sort()).toEqual([...authPaths].sort());
    expect(isAuthApiPath("/v1/webhook/we_01KP0JDP70JXW11QHT4WHMJ7S4")).toBe(true);
    expect(isAuthApiPath("/v1/webhook/we_1/more")).toBe(false);
    for (const operation of requestApiOperations) {
      expect(isAuthApiPath(operation.key.replace(/\{[^}]+\}/g, "x")), operation.key).toBe(false);
    }
  });

  it("shares no method and path with the Request API", () => {
    const requestApi = new Set(
      requestApiOperations.map((operation) => unnamedTemplate(operation.method, operation.key)),
    );
    const shared = authOperations.filter((operation) =>
      requestApi.has(unnamedTemplate(operation.method, operation.key)),
    );
    expect(shared).toEqual([]);
  });

  it.skipIf(referenceMissingReason !== undefined)(
    "serves only operations of the published Auth API, none of them one of the published Request API's",
    () => {
      const published = new Set(methodsAndPaths(readReference("upstream-auth-openapi.0.14.0.json")));
      const requestApi = new Set(methodsAndPaths(readReference("upstream-openapi.0.31.0.json")));
      for (const operation of authOperations) {
        const key = unnamedTemplate(operation.method, operation.key);
        expect(published.has(key), key).toBe(true);
        expect(requestApi.has(key), key).toBe(false);
      }
      expect([...published].filter((key) => requestApi.has(key))).toEqual([]);
    },
  );

  it("accepts the session cookie on every Auth API operation but its health check, and on createOrchestrator", () => {
    expect(
      authOperations
        .filter((operation) => !operation.acceptsSession)
        .map((operation) => operation.operationId),
    ).toEqual(["getAuthHealth"]);
    // The one Request API operation that takes a session: the service's contract creates an
    // orchestrator for the platform behind the session, sent as a bearer token or as the cookie.
    expect(
      requestApiOperations
        .filter((operation) => operation.acceptsSession || operation.acceptsSessionBearer)
        .map((operation) => operation.operationId),
    ).toEqual(["createOrchestrator"]);
    expect(operations.filter((operation) => operation.acceptsSessionBearer)).toEqual(
      operations.filter((operation) => operation.operationId === "createOrchestrator"),
    );
  });
});
