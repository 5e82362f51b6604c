import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { warmUpHeader } from "../../src/server/http/openapi-validation.ts";
import { firstCalledOperations, warmUpOrder } from "../../src/server/warm-up.ts";
import { readPathOperations } from "../../src/spec/operations.ts";
import { problemErrors, startTestServer, type TestServer } from "./helpers.ts";

describe("warmUpOrder", () => {
  const { first, later } = warmUpOrder(readPathOperations());

  it("compiles the first-called operations before answering, then the service's, then the sandbox's", () => {
    expect(first.map((operation) => operation.operationId).sort()).toEqual([...firstCalledOperations].sort());
    const sandbox = later.map((operation) => operation.key.startsWith("/sandbox/"));
    expect(sandbox.indexOf(true)).toBeGreaterThan(0);
    expect(sandbox.slice(sandbox.indexOf(true)).every(Boolean)).toBe(true);
    expect(first.length + later.length).toBe(readPathOperations().length);
  });
});

describe("a server that warms up", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ warmUp: true });
  });
  afterAll(() => server.close());

  it("validates a request that only guesses the warm-up token like any other", async () => {
    const headers = { [warmUpHeader]: "a-guess" };
    const valid = await server.call("GET", "/v1/currencies?network=sepolia", { headers });
    expect(valid.status).toBe(200);
    const invalid = await server.call("GET", "/v1/currencies?network=sepolia&warmUp=1", { headers });
    expect(problemErrors(invalid, "/problems/validation-failed", 400)).toEqual([
      { path: "/query/warmUp", message: `Unknown query parameter 'warmUp', got "1"` },
    ]);
    expect(server.loggedErrors).toEqual([]);
  });
});
