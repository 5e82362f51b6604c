import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../../helpers.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe("getHealth (GET /v2/health)", () => {
  it("answers without a credential", async () => {
    const answer = await server.call("GET", "/v2/health", { auth: "none" });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: "ok" });
  });

  it("answers the same whatever credential comes, even an unknown one", async () => {
    const answer = await server.call("GET", "/v2/health", {
      auth: "none",
      headers: { "x-api-key": "not-a-key-of-any-account" },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: "ok" });
  });

  it("refuses a query parameter it does not document, naming it", async () => {
    const answer = await server.call("GET", "/v2/health?verbose=true", { auth: "none" });
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([expect.objectContaining({ path: "/query/verbose" })]);
  });
});
