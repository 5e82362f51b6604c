import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configWithAccountWallets } from "../../fixtures.ts";
import { problemErrors, startTestServer, type TestServer, usdcOnBase } from "../../helpers.ts";
import { otherWalletKey, signInWithWallet, walletKey, withSession } from "../auth/sign-in.ts";

const shop = "https://shop.example.com";
const conversionRoutes = "/v2/currencies/USD/conversion-routes?network=base";

let server: TestServer;
let asSandbox: ReturnType<typeof withSession>;
beforeAll(async () => {
  const config = configWithAccountWallets(
    privateKeyToAccount(walletKey).address,
    privateKeyToAccount(otherWalletKey).address,
  );
  server = await startTestServer({ config });
  asSandbox = withSession((await signInWithWallet(server, walletKey)).cookie);
});
afterAll(() => server.close());

async function createV1(label: string, allowedDomains: string[]) {
  const answer = await server.call("POST", "/v1/client-ids", {
    ...asSandbox,
    body: { label, allowedDomains },
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.body as { id: string; clientId: string; allowedDomains: string[] };
}

const withClientId = (clientId: string, origin?: string) => ({
  auth: "none" as const,
  headers: { "x-client-id": clientId, ...(origin === undefined ? {} : { origin }) },
});

describe("backend client ID (no allowed domains)", () => {
  it("is created through POST /v1/client-ids with an empty list, and works without Origin", async () => {
    const backend = await createV1("Order service", []);
    expect(backend.allowedDomains).toEqual([]);
    const read = await server.call("GET", conversionRoutes, withClientId(backend.clientId));
    expect(read.status, read.text).toBe(200);
    const created = await server.call("POST", "/v2/secure-payments", {
      ...withClientId(backend.clientId),
      body: { requests: [usdcOnBase()] },
    });
    expect(created.status, created.text).toBe(201);
  });

  it("checks no Origin: one sent by its caller is accepted, whatever it is", async () => {
    const backend = await createV1("Billing worker", []);
    for (const origin of [shop, "https://elsewhere.example"]) {
      const answer = await server.call("GET", conversionRoutes, withClientId(backend.clientId, origin));
      expect(answer.status, origin).toBe(200);
    }
  });

  it("is still refused when inactive or revoked", async () => {
    const backend = await createV1("Paused worker", []);
    const paused = await server.call("PUT", `/v1/client-ids/${backend.id}`, {
      ...asSandbox,
      body: { status: "inactive" },
    });
    expect(paused.status, paused.text).toBe(200);
    const answer = await server.call("GET", conversionRoutes, withClientId(backend.clientId));
    problemErrors(answer, "/problems/unauthorized", 401);
    expect(answer.body.detail).toBe("The client ID in x-client-id is inactive.");
  });

  it("is what a frontend client ID becomes when PUT /v1/client-ids/{id} empties its domains", async () => {
    const frontend = await createV1("Widget", [shop]);
    const before = await server.call("GET", conversionRoutes, withClientId(frontend.clientId));
    problemErrors(before, "/problems/unauthorized", 401);
    const emptied = await server.call("PUT", `/v1/client-ids/${frontend.id}`, {
      ...asSandbox,
      body: { allowedDomains: [] },
    });
    expect(emptied.status, emptied.text).toBe(200);
    expect(emptied.body.allowedDomains).toEqual([]);
    const after = await server.call("GET", conversionRoutes, withClientId(frontend.clientId));
    expect(after.status, after.text).toBe(200);
  });

  it("gets no CORS answer: a browser origin is not allowed by it", async () => {
    await createV1("Cron", []);
    const preflight = await server.call("OPTIONS", "/v2/secure-payments", {
      auth: "none",
      headers: {
        origin: "https://backend-only.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "x-client-id,content-type",
      },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("frontend client ID (with allowed domains)", () => {
  it("stays as strict: 401 without Origin, 403 from another origin, 200 from its own", async () => {
    const frontend = await createV1("Storefront", [shop]);
    const missing = await server.call("GET", conversionRoutes, withClientId(frontend.clientId));
    problemErrors(missing, "/problems/unauthorized", 401);
    expect(missing.body.detail).toBe(
      "A client ID is only valid with the Origin header of one of its allowed domains.",
    );
    const elsewhere = await server.call(
      "GET",
      conversionRoutes,
      withClientId(frontend.clientId, "https://elsewhere.example"),
    );
    problemErrors(elsewhere, "/problems/origin-not-allowed", 403);
    expect(elsewhere.body.detail).toBe(
      "Origin https://elsewhere.example is not among the allowed domains of this client ID.",
    );
    const own = await server.call("GET", conversionRoutes, withClientId(frontend.clientId, shop));
    expect(own.status).toBe(200);
  });

  it("cannot be created with an empty list through POST /v2/client-ids, which keeps at least one", async () => {
    const answer = await server.call("POST", "/v2/client-ids", {
      body: { label: "Empty", allowedDomains: [] },
    });
    const errors = problemErrors(answer, "/problems/validation-failed", 400);
    expect(errors.map((issue) => issue.path)).toEqual(["/body/allowedDomains"]);
  });
});
