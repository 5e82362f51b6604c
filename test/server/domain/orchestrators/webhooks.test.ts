import { afterEach, describe, expect, it } from "vitest";
import { sampleCredentials } from "../../../../src/server/index.ts";
import { problemErrors, schemaErrors, startInstant, type TestServer } from "../../helpers.ts";
import {
  createRequest,
  recordPayment,
  registerEndpoint,
  startWebhookServer,
} from "../../webhooks/harness.ts";
import { hasValidSignature, type Receiver, startReceiver } from "../../webhooks/receiver.ts";
import { asOrchestrator, createOrchestrator } from "./orchestrator-support.ts";

let server: TestServer | undefined;
const receivers: Receiver[] = [];
async function receiver(): Promise<Receiver> {
  const started = await startReceiver();
  receivers.push(started);
  return started;
}
afterEach(async () => {
  await server?.close();
  server = undefined;
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

describe("createOrchestratorWebhook, listOrchestratorWebhooks, activateOrchestratorWebhook and deactivateOrchestratorWebhook", () => {
  it("registers a webhook with its secret once, lists it without, deactivates and reactivates it", async () => {
    server = await startWebhookServer();
    const as = asOrchestrator();
    const url = "http://127.0.0.1:9/orchestrator-hooks";
    const created = await server.call("POST", "/v2/orchestrators/webhooks", { body: { url }, ...as });
    expect(created.status, created.text).toBe(201);
    expect(schemaErrors("OrchestratorWebhookCreated", created.body)).toBe("");
    const webhook = {
      id: expect.stringMatching(/^we_[0-9A-HJKMNP-TV-Z]{26}$/),
      url,
      isActive: true,
      createdAt: startInstant,
    };
    expect(created.body).toEqual({ webhook, secret: expect.stringMatching(/^whsec_[0-9a-f]{48}$/) });
    const { id } = created.body.webhook;

    const listed = await server.call("GET", "/v2/orchestrators/webhooks", as);
    expect(listed.body).toEqual({ webhooks: [created.body.webhook] });
    expect(listed.text).not.toContain(created.body.secret);

    const duplicate = await server.call("POST", "/v2/orchestrators/webhooks", { body: { url }, ...as });
    expect(problemErrors(duplicate, "/problems/already-exists", 409)).toEqual([]);

    const off = await server.call("DELETE", `/v2/orchestrators/webhooks/${id}`, as);
    expect(off.body).toEqual({ webhook: { ...created.body.webhook, isActive: false } });
    const on = await server.call("PATCH", `/v2/orchestrators/webhooks/${id}`, as);
    expect(on.body).toEqual({ webhook: created.body.webhook });

    // The account's sandbox endpoints do not include it, and do not reach it.
    expect((await server.call("GET", "/sandbox/webhooks/endpoints")).body.endpoints).toEqual([]);
    expect((await server.call("GET", `/sandbox/webhooks/endpoints/${id}`)).status).toBe(404);
  });

  it("refuses a URL that is not http(s), naming url", async () => {
    server = await startWebhookServer();
    const answer = await server.call("POST", "/v2/orchestrators/webhooks", {
      body: { url: "ftp://hooks.example.com/x" },
      ...asOrchestrator(),
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      expect.objectContaining({ path: "/body/url" }),
    ]);
  });

  it("another orchestrator's webhook answers 404, and is not listed", async () => {
    server = await startWebhookServer();
    const other = await createOrchestrator(server, "other");
    const created = await server.call("POST", "/v2/orchestrators/webhooks", {
      body: { url: "http://127.0.0.1:9/hooks" },
      ...asOrchestrator(),
    });
    const foreign = await server.call(
      "DELETE",
      `/v2/orchestrators/webhooks/${created.body.webhook.id}`,
      asOrchestrator(other.key),
    );
    expect(problemErrors(foreign, "/problems/not-found", 404)).toEqual([]);
    expect((await server.call("GET", "/v2/orchestrators/webhooks", asOrchestrator(other.key))).body).toEqual({
      webhooks: [],
    });
  });
});

describe("sendOrchestratorWebhookTest (POST /v2/orchestrators/webhooks/test)", () => {
  it("sends a signed test client_id.linked to each active webhook through the webhook worker", async () => {
    const active = await receiver();
    const inactive = await receiver();
    server = await startWebhookServer();
    const as = asOrchestrator();
    const first = await server.call("POST", "/v2/orchestrators/webhooks", {
      body: { url: active.url },
      ...as,
    });
    const second = await server.call("POST", "/v2/orchestrators/webhooks", {
      body: { url: inactive.url },
      ...as,
    });
    await server.call("DELETE", `/v2/orchestrators/webhooks/${second.body.webhook.id}`, as);

    const answer = await server.call("POST", "/v2/orchestrators/webhooks/test", {
      body: { eventType: "client_id.linked" },
      ...as,
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ sent: 1, failed: 0 });
    await server.server.webhooks.settled();

    expect(inactive.received).toEqual([]);
    expect(active.received).toHaveLength(1);
    const [delivered] = active.received;
    if (!delivered) throw new Error("no delivery");
    expect(delivered.headers["x-request-network-test"]).toBe("true");
    expect(hasValidSignature(delivered, first.body.secret)).toBe(true);
    expect(JSON.parse(delivered.body.toString("utf8"))).toEqual({
      event: "client_id.linked",
      clientId: "cli_00000000000000000000000000000000",
      orchestratorId: sampleCredentials.orchestratorId,
      linkId: "01KM9T3B2C4X8R6T3N5B1D0HQE",
      intentId: "01KM9T5D4E6X8R6T3N5B1D0HQF",
      externalId: "merchant_test",
      destinationId:
        "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7@eip155:8453#00000000:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
      destinationWalletAddress: "0x6923831acf5c327260d7ac7c9dff5b1c3cb3c7d7",
      chain: "base",
      currency: "USDC",
      timestamp: startInstant,
    });
  });

  it("refuses an event orchestrators do not get, naming eventType", async () => {
    server = await startWebhookServer();
    const answer = await server.call("POST", "/v2/orchestrators/webhooks/test", {
      body: { eventType: "payment.confirmed" },
      ...asOrchestrator(),
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      expect.objectContaining({ path: "/body/eventType" }),
    ]);
  });

  it("the account's payment events go to its own endpoints, never to its orchestrators' webhooks", async () => {
    const own = await receiver();
    const orchestrators = await receiver();
    server = await startWebhookServer();
    await registerEndpoint(server, own.url, ["payment.confirmed"]);
    await server.call("POST", "/v2/orchestrators/webhooks", {
      body: { url: orchestrators.url },
      ...asOrchestrator(),
    });
    const requestId = await createRequest(server);
    await recordPayment(server, requestId, { outcome: "paid" });
    await server.server.webhooks.settled();
    expect(own.received).toHaveLength(1);
    expect(orchestrators.received).toEqual([]);
  });
});
