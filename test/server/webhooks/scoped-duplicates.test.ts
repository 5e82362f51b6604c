import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createDefaultConfig, sampleCredentials } from "../../../src/server/index.ts";
import { createSchemaValidator, describeErrors } from "../../../src/spec/schema-validator.ts";
import { loadBundledSpec, resolveNode } from "../../../src/spec/spec-document.ts";
import { verifyWebhookSignature } from "../../../src/webhooks/verify.ts";
import {
  asOrchestrator,
  createClientId,
  createOrchestrator,
} from "../domain/orchestrators/orchestrator-support.ts";
import { browserOrigin, payee, type TestServer, usdcOnBase } from "../helpers.ts";
import { recordPayment, registerEndpoint, startWebhookServer } from "./harness.ts";
import { type ReceivedWebhook, type Receiver, startReceiver } from "./receiver.ts";

const spec = loadBundledSpec();
const validator = createSchemaValidator(spec);
const backendClientId = "cli_backend_orders_0001";
const txHash = `0x${"cd".repeat(32)}`;

/** The spec's body schema of a webhook event. */
function bodySchemaOf(event: string): unknown {
  const webhook = (spec.webhooks as Record<string, unknown>)[event];
  const post = (resolveNode(spec, webhook) as { post: { requestBody: unknown } }).post;
  const body = resolveNode(spec, post.requestBody) as { content: Record<string, { schema: unknown }> };
  return body.content["application/json"]?.schema;
}

let server: TestServer;
let hook: Receiver;
let secret: string;
beforeAll(async () => {
  hook = await startReceiver();
  const config = createDefaultConfig();
  config.accounts[0]?.clientIds.push({
    id: "cid_backend",
    clientId: backendClientId,
    label: "Order service",
    allowedDomains: [],
  });
  server = await startWebhookServer({ settings: { accounts: config.accounts } });
  secret = (await registerEndpoint(server, hook.url)).secret;
});
afterAll(async () => {
  await server.close();
  await hook.close();
});

let seen = 0;
beforeEach(() => {
  seen = hook.received.length;
});

/** The deliveries that arrived since the test began, by event name; each must verify and validate. */
function arrivedByEvent(): Map<string, { payload: Record<string, unknown>; delivery: string }> {
  const byEvent = new Map<string, { payload: Record<string, unknown>; delivery: string }>();
  for (const webhook of hook.received.slice(seen) as ReceivedWebhook[]) {
    const signature = webhook.headers["x-request-network-signature"];
    expect(verifyWebhookSignature({ secret, rawBody: webhook.body, signature })).toBe(true);
    const payload = JSON.parse(webhook.body.toString("utf8"));
    expect(describeErrors(validator.errorsFor(bodySchemaOf(payload.event), payload)), payload.event).toBe("");
    expect(webhook.headers["x-request-network-test"]).toBeUndefined();
    byEvent.set(payload.event, {
      payload,
      delivery: webhook.headers["x-request-network-delivery"] as string,
    });
  }
  return byEvent;
}

const clientIdCall = (clientId: string, origin?: string) => ({
  auth: "none" as const,
  headers: { "x-client-id": clientId, ...(origin === undefined ? {} : { origin }) },
});

describe("scoped duplicates of payment.confirmed and payment.partial", () => {
  it("a secure payment made with a client ID from its page sends the core event, .client_id and .checkout", async () => {
    const created = await server.call("POST", "/v2/secure-payments", {
      ...clientIdCall(sampleCredentials.clientId, browserOrigin),
      body: { requests: [usdcOnBase("10")] },
    });
    expect(created.status, created.text).toBe(201);
    const requestId = created.body.requestIds[0] as string;
    await recordPayment(server, requestId, { outcome: "paid", txHash });

    const arrived = arrivedByEvent();
    expect([...arrived.keys()].sort()).toEqual([
      "payment.confirmed",
      "payment.confirmed.checkout",
      "payment.confirmed.client_id",
    ]);
    const core = arrived.get("payment.confirmed")?.payload as Record<string, unknown>;
    expect(core).toMatchObject({
      event: "payment.confirmed",
      requestId,
      clientId: sampleCredentials.clientId,
      amount: "10",
      txHash,
    });
    expect(core).not.toHaveProperty("origin");
    expect(arrived.get("payment.confirmed.client_id")?.payload).toEqual({
      ...core,
      event: "payment.confirmed.client_id",
      clientId: sampleCredentials.clientId,
      origin: browserOrigin,
    });
    expect(arrived.get("payment.confirmed.checkout")?.payload).toEqual({
      ...core,
      event: "payment.confirmed.checkout",
      securePaymentToken: created.body.token,
    });
    // Three deliveries, each with an id of its own.
    expect(new Set([...arrived.values()].map((entry) => entry.delivery)).size).toBe(3);
  });

  it("a secure payment made with an orchestrator key paired with a client ID sends the client ID's duplicate", async () => {
    const orchestrator = await createOrchestrator(server, "Scoped Checkout");
    const storefront = await createClientId(server, "Scoped storefront");
    const linked = await server.call("POST", "/v2/orchestrators/client-ids", {
      body: { clientId: storefront.clientId },
      ...asOrchestrator(orchestrator.key),
    });
    expect(linked.status, linked.text).toBe(201);
    const created = await server.call("POST", "/v2/secure-payments", {
      auth: "none",
      headers: {
        "x-orchestrator-key": orchestrator.key,
        "x-client-id": storefront.clientId,
        origin: "https://shop.example.com",
      },
      body: { requests: [usdcOnBase("12.50")] },
    });
    expect(created.status, created.text).toBe(201);
    seen = hook.received.length;
    await recordPayment(server, created.body.requestIds[0], { outcome: "paid" });
    const arrived = arrivedByEvent();
    expect([...arrived.keys()].sort()).toEqual([
      "payment.confirmed",
      "payment.confirmed.checkout",
      "payment.confirmed.client_id",
    ]);
    expect(arrived.get("payment.confirmed.client_id")?.payload).toMatchObject({
      clientId: storefront.clientId,
      origin: "https://shop.example.com",
    });
  });

  it("a request of a backend client ID, made without Origin, reports origin null; partial payments too", async () => {
    const created = await server.call("POST", "/v2/request", {
      ...clientIdCall(backendClientId),
      body: usdcOnBase("20"),
    });
    expect(created.status, created.text).toBe(201);
    const requestId = created.body.requestId as string;
    await recordPayment(server, requestId, { outcome: "partial", amount: "5", txHash });

    const arrived = arrivedByEvent();
    expect([...arrived.keys()].sort()).toEqual(["payment.partial", "payment.partial.client_id"]);
    const core = arrived.get("payment.partial")?.payload as Record<string, unknown>;
    expect(core).toMatchObject({ requestId, amount: "5", totalAmountPaid: "5", expectedAmount: "20" });
    expect(arrived.get("payment.partial.client_id")?.payload).toEqual({
      ...core,
      event: "payment.partial.client_id",
      clientId: backendClientId,
      origin: null,
    });
  });

  it("a secure payment made with the API key sends .checkout only; a request made with it, no duplicate", async () => {
    const link = await server.call("POST", "/v2/secure-payments", { body: { requests: [usdcOnBase("30")] } });
    await recordPayment(server, link.body.requestIds[0], { outcome: "paid" });
    const fromLink = arrivedByEvent();
    expect([...fromLink.keys()].sort()).toEqual(["payment.confirmed", "payment.confirmed.checkout"]);
    expect(fromLink.get("payment.confirmed")?.payload).not.toHaveProperty("clientId");

    seen = hook.received.length;
    const plain = await server.call("POST", "/v2/request", { body: { ...usdcOnBase("40"), payee } });
    await recordPayment(server, plain.body.requestId, { outcome: "paid" });
    expect([...arrivedByEvent().keys()]).toEqual(["payment.confirmed"]);
  });
});

describe("which endpoints receive the scoped duplicates", () => {
  it("those that list the duplicate: an endpoint of payment.confirmed alone gets the core event only", async () => {
    const confirmedOnly = await startReceiver();
    const checkoutOnly = await startReceiver();
    const failedOnly = await startReceiver();
    try {
      await registerEndpoint(server, confirmedOnly.url, ["payment.confirmed"]);
      await registerEndpoint(server, checkoutOnly.url, ["payment.confirmed.checkout"]);
      await registerEndpoint(server, failedOnly.url, ["payment.failed"]);
      const created = await server.call("POST", "/v2/secure-payments", {
        ...clientIdCall(sampleCredentials.clientId, browserOrigin),
        body: { requests: [usdcOnBase("50")] },
      });
      await recordPayment(server, created.body.requestIds[0], { outcome: "paid" });
      const events = (receiver: Receiver) =>
        receiver.received.map((webhook) => JSON.parse(webhook.body.toString("utf8")).event).sort();
      expect(events(confirmedOnly)).toEqual(["payment.confirmed"]);
      expect(events(checkoutOnly)).toEqual(["payment.confirmed.checkout"]);
      expect(events(failedOnly)).toEqual([]);
    } finally {
      await Promise.all([confirmedOnly.close(), checkoutOnly.close(), failedOnly.close()]);
    }
  });

  it("an Auth API webhook of a client ID gets its requests' core events and duplicates, not another client ID's", async () => {
    const scoped = await startReceiver();
    try {
      const created = await server.call("POST", "/v1/webhook", {
        ...clientIdCall(sampleCredentials.clientId, browserOrigin),
        body: { url: scoped.url },
      });
      expect(created.status, created.text).toBe(201);
      const own = await server.call("POST", "/v2/secure-payments", {
        ...clientIdCall(sampleCredentials.clientId, browserOrigin),
        body: { requests: [usdcOnBase("60")] },
      });
      await recordPayment(server, own.body.requestIds[0], { outcome: "paid" });
      const others = await server.call("POST", "/v2/request", {
        ...clientIdCall(backendClientId),
        body: usdcOnBase("70"),
      });
      await recordPayment(server, others.body.requestId, { outcome: "paid" });
      const received = scoped.received.map((webhook) => JSON.parse(webhook.body.toString("utf8")));
      expect(received.map((payload) => [payload.event, payload.requestId]).sort()).toEqual([
        ["payment.confirmed", own.body.requestIds[0]],
        ["payment.confirmed.checkout", own.body.requestIds[0]],
        ["payment.confirmed.client_id", own.body.requestIds[0]],
      ]);
      for (const webhook of scoped.received) {
        const signature = webhook.headers["x-request-network-signature"];
        expect(
          verifyWebhookSignature({ secret: created.body.secret, rawBody: webhook.body, signature }),
        ).toBe(true);
      }
    } finally {
      await scoped.close();
    }
  });

  it("a test delivery of each duplicate validates against the spec, with placeholder values", async () => {
    const endpoints = (await server.call("GET", "/sandbox/webhooks/endpoints")).body.endpoints;
    const endpointId = endpoints[0].id as string;
    for (const event of [
      "payment.confirmed.client_id",
      "payment.partial.client_id",
      "payment.confirmed.checkout",
      "payment.partial.checkout",
    ]) {
      const answer = await server.call("POST", `/sandbox/webhooks/endpoints/${endpointId}/test`, {
        body: { event },
      });
      expect(answer.status, answer.text).toBe(202);
      expect(answer.body.event).toBe(event);
    }
    await server.server.webhooks.settled();
    const tests = hook.received.slice(seen).map((webhook) => JSON.parse(webhook.body.toString("utf8")));
    expect(tests.map((payload) => payload.event)).toEqual([
      "payment.confirmed.client_id",
      "payment.partial.client_id",
      "payment.confirmed.checkout",
      "payment.partial.checkout",
    ]);
    expect(tests[0]).toMatchObject({ clientId: "pk_test_placeholder", origin: null });
    expect(tests[2]).toMatchObject({ securePaymentToken: "01KP0000000000000000000000" });
    for (const payload of tests) {
      expect(describeErrors(validator.errorsFor(bodySchemaOf(payload.event), payload))).toBe("");
    }
  });
});
