import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiKey, problemErrors, startTestServer, type TestServer } from "../../helpers.ts";
import { asOrchestrator, createClientId, createOrchestrator } from "./orchestrator-support.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const shop = "https://shop.example.com";
const link = {
  requests: [
    {
      payee: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7",
      amount: "12.50",
      invoiceCurrency: "USD",
      paymentCurrency: "USDC-base",
    },
  ],
};

/** An orchestrator key paired with a client ID and an Origin, as an orchestrator's backend sends them. */
const paired = (key: string, clientId: string, origin = shop) => ({
  auth: "none" as const,
  headers: { "x-orchestrator-key": key, "x-client-id": clientId, origin },
});

describe("an orchestrator key paired with a client ID, on the secure payment creations", () => {
  it("creates the link for the client ID's account once the client ID is linked to the orchestrator", async () => {
    const orchestrator = await createOrchestrator(server, "Paired Checkout");
    const clientId = await createClientId(server, "Paired storefront");

    const unlinked = await server.call("POST", "/v2/secure-payments", {
      body: link,
      ...paired(orchestrator.key, clientId.clientId),
    });
    expect(unlinked.status).toBe(401);
    expect(unlinked.body.detail).toBe(
      "The client ID in x-client-id is not linked to the orchestrator whose key is in x-orchestrator-key.",
    );

    const linked = await server.call("POST", "/v2/orchestrators/client-ids", {
      body: { clientId: clientId.clientId },
      ...asOrchestrator(orchestrator.key),
    });
    expect(linked.status, linked.text).toBe(201);

    const created = await server.call("POST", "/v2/secure-payments", {
      body: link,
      ...paired(orchestrator.key, clientId.clientId),
    });
    expect(created.status, created.text).toBe(201);
    // The account's own API key finds it: the payment is the client ID's account's.
    const found = await server.call(
      "GET",
      `/v2/secure-payments?requestId=${encodeURIComponent(created.body.requestIds[0])}`,
      { headers: { "x-api-key": apiKey } },
    );
    expect(found.status, found.text).toBe(200);
    expect(found.body.token).toBe(created.body.token);

    const preview = await server.call("POST", "/v2/secure-payments/fees/preview", {
      body: { amount: "100", currency: "USDC", flow: "get_paid" },
      ...paired(orchestrator.key, clientId.clientId),
    });
    expect(preview.status, preview.text).toBe(200);
  });

  it("refuses an unknown orchestrator key, a key without a client ID, and an Origin the client ID does not allow", async () => {
    const orchestrator = await createOrchestrator(server, "Strict Checkout");
    const clientId = await createClientId(server, "Strict storefront");
    await server.call("POST", "/v2/orchestrators/client-ids", {
      body: { clientId: clientId.clientId },
      ...asOrchestrator(orchestrator.key),
    });

    const unknownKey = await server.call("POST", "/v2/secure-payments", {
      body: link,
      ...paired("orc_not_a_key_of_anyone_0000", clientId.clientId),
    });
    expect(unknownKey.status).toBe(401);
    expect(unknownKey.body.detail).toBe("The orchestrator key in x-orchestrator-key is not recognised.");

    const alone = await server.call("POST", "/v2/secure-payments", {
      body: link,
      ...asOrchestrator(orchestrator.key),
    });
    expect(alone.status).toBe(401);
    expect(alone.body.detail).toBe(
      "An orchestrator key is valid here only paired with a client ID in x-client-id and its Origin.",
    );

    const elsewhere = await server.call("POST", "/v2/secure-payments", {
      body: link,
      ...paired(orchestrator.key, clientId.clientId, "https://evil.example"),
    });
    expect(problemErrors(elsewhere, "/problems/origin-not-allowed", 403)).toEqual([]);
  });

  it("leaves the operations without the paired form as they were: the pair does not stand for an API key", async () => {
    const orchestrator = await createOrchestrator(server, "Reader Checkout");
    const clientId = await createClientId(server, "Reader storefront");
    await server.call("POST", "/v2/orchestrators/client-ids", {
      body: { clientId: clientId.clientId },
      ...asOrchestrator(orchestrator.key),
    });
    // findSecurePayment takes an API key only.
    const answer = await server.call("GET", "/v2/secure-payments?requestId=01JQ0000000000000000000000", {
      ...paired(orchestrator.key, clientId.clientId),
    });
    expect(answer.status).toBe(401);
    expect(answer.body.detail).toBe(
      "This operation requires an API key in x-api-key; client IDs are not accepted here.",
    );
  });
});
