import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPayreqClient, type PayreqClient, unwrap } from "../../src/index.ts";
import { apiKey, payee, startTestServer, type TestServer } from "./helpers.ts";

// A client ID's life as an integrator and its checkout page live it, against an in-process
// reference server started as `npm start` starts it: the integrator's backend manages the client
// ID with the API key; the page calls from its origin, preflight first, as a browser does.

const shop = "https://shop.example.com";

let server: TestServer;
let backend: PayreqClient;
beforeAll(async () => {
  server = await startTestServer();
  backend = createPayreqClient({ baseUrl: server.url, apiKey });
});
afterAll(() => server.close());

/** What a browser sends before a call with custom headers: an OPTIONS preflight. */
function preflight(path: string, method: string) {
  return fetch(`${server.url}${path}`, {
    method: "OPTIONS",
    headers: {
      origin: shop,
      "access-control-request-method": method,
      "access-control-request-headers": "content-type,x-client-id",
    },
  });
}

describe("client-ID creation -> use from a browser origin -> revocation -> deletion", () => {
  it("authenticates the page's calls while active, and refuses them from the first call after revocation", async () => {
    // The backend creates the client ID and hands its public value to the page.
    const created = unwrap(
      await backend.POST("/v2/client-ids", { body: { label: "Checkout page", allowedDomains: [shop] } }),
    );
    const page = createPayreqClient({ baseUrl: server.url, clientId: created.clientId, origin: shop });

    // The page loads the tokens a USD invoice can be paid with, as the payment widget does.
    const routesPreflight = await preflight("/v2/currencies/USD/conversion-routes?network=base", "GET");
    expect(routesPreflight.status).toBe(204);
    expect(routesPreflight.headers.get("access-control-allow-origin")).toBe(shop);
    expect(routesPreflight.headers.get("access-control-allow-headers")).toContain("X-Client-Id");
    const routes = await page.GET("/v2/currencies/{currencyId}/conversion-routes", {
      params: { path: { currencyId: "USD" }, query: { network: "base" } },
    });
    expect(routes.response.status).toBe(200);
    expect(routes.response.headers.get("access-control-allow-origin")).toBe(shop);
    expect(routes.data?.conversionRoutes.map((token) => token.id)).toContain("USDC-base");

    // It creates a payment link, a write with a JSON body: preflight for POST, then the call.
    const linkPreflight = await preflight("/v2/secure-payments", "POST");
    expect(linkPreflight.status).toBe(204);
    expect(linkPreflight.headers.get("access-control-allow-methods")).toContain("POST");
    const link = await page.POST("/v2/secure-payments", {
      body: { requests: [{ payee, amount: "19.90", invoiceCurrency: "USD", paymentCurrency: "USDC-base" }] },
    });
    expect(link.response.status).toBe(201);
    const used = unwrap(await backend.GET("/v2/client-ids/{id}", { params: { path: { id: created.id } } }));
    expect(used.lastUsedAt).not.toBeNull();

    // Another origin gets no CORS answer and a 403 for the call.
    const elsewhere = createPayreqClient({
      baseUrl: server.url,
      clientId: created.clientId,
      origin: "https://evil.example",
    });
    expect((await elsewhere.GET("/v2/currencies", {})).response.status).toBe(403);

    // The backend revokes it: the very next call is 401, and the browser's preflight 403.
    const revoked = unwrap(
      await backend.PUT("/v2/client-ids/{id}", {
        params: { path: { id: created.id } },
        body: { status: "revoked" },
      }),
    );
    expect(revoked.status).toBe("revoked");
    const refused = await page.GET("/v2/currencies/{currencyId}/conversion-routes", {
      params: { path: { currencyId: "USD" }, query: { network: "base" } },
    });
    expect(refused.response.status).toBe(401);
    expect(refused.error && "type" in refused.error ? refused.error.type : undefined).toBe(
      "/problems/unauthorized",
    );
    expect(refused.response.headers.get("access-control-allow-origin")).toBeNull();
    expect((await preflight("/v2/currencies", "GET")).status).toBe(403);

    // Deleting it keeps it revoked for good: listed as revoked, never active again.
    const deleted = await backend.DELETE("/v2/client-ids/{id}", { params: { path: { id: created.id } } });
    expect(deleted.response.status).toBe(200);
    const listed = unwrap(await backend.GET("/v2/client-ids"));
    expect(listed.find((record) => record.id === created.id)?.status).toBe("revoked");
    const reactivate = await backend.PUT("/v2/client-ids/{id}", {
      params: { path: { id: created.id } },
      body: { status: "active" },
    });
    expect(reactivate.response.status).toBe(400);
    expect(reactivate.error && "type" in reactivate.error ? reactivate.error.type : undefined).toBe(
      "/problems/invalid-state",
    );
    expect((await page.GET("/v2/currencies", {})).response.status).toBe(401);
  });

  it("stops authenticating a client ID deleted while active, at once", async () => {
    const created = unwrap(
      await backend.POST("/v2/client-ids", { body: { label: "Landing page", allowedDomains: [shop] } }),
    );
    const page = createPayreqClient({ baseUrl: server.url, clientId: created.clientId, origin: shop });
    expect((await page.GET("/v2/currencies", {})).response.status).toBe(200);
    const deleted = await backend.DELETE("/v2/client-ids/{id}", { params: { path: { id: created.id } } });
    expect(deleted.response.status).toBe(200);
    expect((await page.GET("/v2/currencies", {})).response.status).toBe(401);
  });
});
