import { afterEach, describe, expect, it } from "vitest";
import { createDefaultConfig, sampleCredentials } from "../../../../src/server/index.ts";
import { webhookEventNames } from "../../../../src/wire/webhook-event.ts";
import { problemErrors, schemaErrors, type TestServer } from "../../helpers.ts";
import {
  createRequest,
  deliveriesOf,
  recordPayment,
  registerEndpoint,
  startWebhookServer,
} from "../../webhooks/harness.ts";
import { heldScheduler } from "../../webhooks/held-scheduler.ts";
import { hasValidSignature, type Receiver, startReceiver } from "../../webhooks/receiver.ts";

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

const eventOf = (body: Buffer) => JSON.parse(body.toString("utf8")).event;

describe("createSandboxWebhookEndpoint, listSandboxWebhookEndpoints and getSandboxWebhookEndpoint", () => {
  it("answers the secret once at creation, then only its last four characters", async () => {
    const hook = await receiver();
    server = await startWebhookServer();
    const created = await server.call("POST", "/sandbox/webhooks/endpoints", {
      body: { url: hook.url, events: ["payment.failed"] },
    });
    expect(created.status).toBe(201);
    expect(schemaErrors("SandboxWebhookEndpointWithSecret", created.body)).toBe("");
    const { id, secret } = created.body;
    expect(id).toMatch(/^we_[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(secret).toMatch(/^whsec_[0-9a-f]{48}$/);
    const masked = {
      id,
      url: hook.url,
      events: ["payment.failed"],
      secretLast4: secret.slice(-4),
      source: "api",
      createdAt: "2026-04-12T10:00:00.000Z",
      updatedAt: "2026-04-12T10:00:00.000Z",
    };
    expect(created.body).toEqual({ ...masked, secret });

    const listed = await server.call("GET", "/sandbox/webhooks/endpoints");
    expect(listed.body).toEqual({ endpoints: [masked], nextCursor: null });
    expect(listed.text).not.toContain(secret);
    expect((await server.call("GET", `/sandbox/webhooks/endpoints/${id}`)).body).toEqual(masked);
  });

  it("answers an unknown query parameter on the list with the 400 it documents", async () => {
    server = await startWebhookServer();
    const answer = await server.call("GET", "/sandbox/webhooks/endpoints?foo=1");
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      { path: "/query/foo", message: `Unknown query parameter 'foo', got "1"` },
    ]);
  });

  it("refuses malformed URLs and unknown events, naming the field", async () => {
    server = await startWebhookServer();
    const withCredentials = await server.call("POST", "/sandbox/webhooks/endpoints", {
      body: { url: "https://user:password@shop.example.com/webhooks" },
    });
    expect(problemErrors(withCredentials, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/url", message: "must not contain credentials (user:password@)" },
    ]);
    const ftp = await server.call("POST", "/sandbox/webhooks/endpoints", {
      body: { url: "ftp://shop.example.com/" },
    });
    expect(problemErrors(ftp, "/problems/validation-failed", 400).map((issue) => issue.path)).toEqual([
      "/body/url",
    ]);
    const unknownEvent = await server.call("POST", "/sandbox/webhooks/endpoints", {
      body: { url: "https://shop.example.com/webhooks", events: ["payment.reversed"] },
    });
    expect(
      problemErrors(unknownEvent, "/problems/validation-failed", 400).map((issue) => issue.path),
    ).toEqual(["/body/events/0"]);
  });

  it("sends each endpoint only the events it subscribes to", async () => {
    const everything = await receiver();
    const failuresOnly = await receiver();
    server = await startWebhookServer();
    await registerEndpoint(server, everything.url);
    await registerEndpoint(server, failuresOnly.url, ["payment.failed"]);
    const requestId = await createRequest(server);
    await recordPayment(server, requestId, { outcome: "failed" });
    await recordPayment(server, requestId, { outcome: "partial", amount: "5" });
    await recordPayment(server, requestId, { outcome: "paid" });

    expect(everything.received.map((webhook) => eventOf(webhook.body))).toEqual([
      "payment.failed",
      "payment.partial",
      "payment.confirmed",
    ]);
    expect(failuresOnly.received.map((webhook) => eventOf(webhook.body))).toEqual(["payment.failed"]);
  });

  it("takes endpoints from the configuration, signed with the account's secret by default", async () => {
    const orders = await receiver();
    const failures = await receiver();
    server = await startWebhookServer({
      endpoints: [
        { url: orders.url },
        {
          id: "failures",
          url: failures.url,
          secret: "whsec_failures_0123456789",
          events: ["payment.failed"],
        },
      ],
    });
    const listed = await server.call("GET", "/sandbox/webhooks/endpoints");
    expect(
      listed.body.endpoints.map((e: Record<string, unknown>) => [e.id, e.source, e.secretLast4, e.events]),
    ).toEqual([
      ["we_config_0_0", "config", "4860", [...webhookEventNames]],
      ["failures", "config", "6789", ["payment.failed"]],
    ]);

    const requestId = await createRequest(server);
    await recordPayment(server, requestId, { outcome: "failed", subStatus: "transaction_reverted" });
    expect(
      hasValidSignature(
        orders.received[0] as NonNullable<(typeof orders.received)[0]>,
        sampleCredentials.webhookSecret,
      ),
    ).toBe(true);
    expect(
      hasValidSignature(
        failures.received[0] as NonNullable<(typeof failures.received)[0]>,
        "whsec_failures_0123456789",
      ),
    ).toBe(true);
    expect(JSON.parse(failures.received[0]?.body.toString("utf8") as string).subStatus).toBe(
      "transaction_reverted",
    );
  });

  it("keeps each account's endpoints and deliveries to itself", async () => {
    const config = createDefaultConfig();
    config.accounts.push({
      id: "acct_other",
      apiKeys: ["sk_sandbox_other_0123456789"],
      webhookSecret: "whsec_other_0123456789ab",
      clientIds: [],
    });
    server = await startWebhookServer({ settings: { accounts: config.accounts } });
    const { id } = await registerEndpoint(server, "https://shop.example.com/webhooks");
    const asOther = { headers: { "x-api-key": "sk_sandbox_other_0123456789" } };
    for (const [method, path] of [
      ["GET", `/sandbox/webhooks/endpoints/${id}`],
      ["DELETE", `/sandbox/webhooks/endpoints/${id}`],
      ["POST", `/sandbox/webhooks/endpoints/${id}/rotate-secret`],
      ["POST", `/sandbox/webhooks/endpoints/${id}/test`],
    ] as const) {
      problemErrors(await server.call(method, path, asOther), "/problems/not-found", 404);
    }
    expect((await server.call("GET", "/sandbox/webhooks/endpoints", asOther)).body).toEqual({
      endpoints: [],
      nextCursor: null,
    });
  });
});

describe("createSandboxWebhookEndpoint within the endpoint limit per account", () => {
  const register = (url: string, headers: Record<string, string> = {}) =>
    (server as TestServer).call("POST", "/sandbox/webhooks/endpoints", { body: { url }, headers });

  it("allows 20 endpoints by default and refuses the 21st with 400, changing nothing", async () => {
    server = await startWebhookServer();
    for (let index = 0; index < 20; index++) {
      expect((await register(`http://127.0.0.1:${4000 + index}/hooks`)).status).toBe(201);
    }
    const refused = await register("http://127.0.0.1:4020/hooks");
    expect(problemErrors(refused, "/problems/invalid-state", 400)).toEqual([]);
    expect(refused.body.detail).toBe(
      "The account has 20 webhook endpoints, the most it may have (maxWebhookEndpointsPerAccount is 20): delete one first.",
    );
    expect((await server.call("GET", "/sandbox/webhooks/endpoints")).body.endpoints).toHaveLength(20);
  });

  it("counts configured endpoints, counts per account, and frees a place when one is deleted", async () => {
    const config = createDefaultConfig();
    config.accounts.push({
      id: "acct_other",
      apiKeys: ["sk_sandbox_other_0123456789"],
      webhookSecret: "whsec_other_0123456789ab",
      clientIds: [],
    });
    server = await startWebhookServer({
      endpoints: [{ url: "http://127.0.0.1:4000/configured" }],
      settings: { accounts: config.accounts, maxWebhookEndpointsPerAccount: 2 },
    });
    const { id } = await registerEndpoint(server, "http://127.0.0.1:4001/hooks");
    const refused = await register("http://127.0.0.1:4002/hooks");
    expect(problemErrors(refused, "/problems/invalid-state", 400)).toEqual([]);
    expect(refused.body.detail).toBe(
      "The account has 2 webhook endpoints, the most it may have (maxWebhookEndpointsPerAccount is 2): delete one first.",
    );
    const asOther = { "x-api-key": "sk_sandbox_other_0123456789" };
    expect((await register("http://127.0.0.1:4003/hooks", asOther)).status).toBe(201);
    expect((await server.call("DELETE", `/sandbox/webhooks/endpoints/${id}`)).status).toBe(204);
    expect((await register("http://127.0.0.1:4002/hooks")).status).toBe(201);
  });
});

describe("rotateSandboxWebhookEndpointSecret (rotating a secret)", () => {
  it("signs every later attempt with the new secret only", async () => {
    const hook = await receiver();
    server = await startWebhookServer();
    const { id, secret: oldSecret } = await registerEndpoint(server, hook.url);
    const rotated = await server.call("POST", `/sandbox/webhooks/endpoints/${id}/rotate-secret`);
    expect(rotated.status).toBe(200);
    const newSecret: string = rotated.body.secret;
    expect(newSecret).not.toBe(oldSecret);
    expect(rotated.body).toMatchObject({ id, secretLast4: newSecret.slice(-4) });

    const requestId = await createRequest(server);
    await recordPayment(server, requestId, { outcome: "paid" });
    const [webhook] = hook.received;
    if (!webhook) throw new Error("nothing was delivered");
    expect(hasValidSignature(webhook, newSecret)).toBe(true);
    expect(hasValidSignature(webhook, oldSecret)).toBe(false);
  });
});

describe("sendSandboxWebhookTest (test events)", () => {
  it("sends a signed delivery with x-request-network-test: true, whatever the endpoint subscribes to", async () => {
    const hook = await receiver();
    server = await startWebhookServer();
    const { id, secret } = await registerEndpoint(server, hook.url, ["payment.confirmed"]);

    const accepted = await server.call("POST", `/sandbox/webhooks/endpoints/${id}/test`);
    expect(accepted.status).toBe(202);
    expect(accepted.body).toMatchObject({
      endpointId: id,
      event: "payment.confirmed",
      test: true,
      requestId: null,
    });
    const failed = await server.call("POST", `/sandbox/webhooks/endpoints/${id}/test`, {
      body: { event: "payment.failed" },
    });
    expect(failed.status).toBe(202);
    await server.server.webhooks.settled();

    expect(hook.received.map((webhook) => eventOf(webhook.body))).toEqual([
      "payment.confirmed",
      "payment.failed",
    ]);
    for (const webhook of hook.received) {
      expect(webhook.headers["x-request-network-test"]).toBe("true");
      expect(hasValidSignature(webhook, secret)).toBe(true);
    }
    expect(JSON.parse(hook.received[1]?.body.toString("utf8") as string)).toEqual({
      event: "payment.failed",
      requestId: `01${"0".repeat(63)}1`,
      requestID: `01${"0".repeat(63)}1`,
      paymentReference: "0x0000000000000000",
      explorer: `https://scan.request.network/request/01${"0".repeat(63)}1`,
      subStatus: "insufficient_funds",
      paymentProcessor: "request-network",
    });
    const delivered = (await server.call("GET", `/sandbox/webhooks/deliveries/${accepted.body.id}`)).body;
    expect(delivered).toMatchObject({ state: "delivered", test: true });
    expect(delivered.attempts).toHaveLength(1);
  });
});

describe("deleteSandboxWebhookEndpoint (deleting an endpoint)", () => {
  it("stops its deliveries: pending ones end dead, and new events are not sent to it", async () => {
    const hook = await receiver();
    const held = heldScheduler();
    server = await startWebhookServer({ webhookScheduler: held.scheduler });
    const { id } = await registerEndpoint(server, hook.url);
    const test = await server.call("POST", `/sandbox/webhooks/endpoints/${id}/test`);
    expect(held.held()).toBe(1);

    const redeliverPending = await server.call(
      "POST",
      `/sandbox/webhooks/deliveries/${test.body.id}/redeliver`,
    );
    problemErrors(redeliverPending, "/problems/invalid-state", 400);

    const deleted = await server.call("DELETE", `/sandbox/webhooks/endpoints/${id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    held.runAll();
    await server.server.webhooks.settled();
    expect(hook.received).toEqual([]);
    const [dead] = await deliveriesOf(server, `endpointId=${id}`);
    expect(dead).toMatchObject({
      id: test.body.id,
      state: "dead",
      deadReason: "endpoint_deleted",
      attempts: [],
    });
    problemErrors(
      await server.call("POST", `/sandbox/webhooks/deliveries/${test.body.id}/redeliver`),
      "/problems/invalid-state",
      400,
    );

    const requestId = await createRequest(server);
    await server.call("POST", `/sandbox/requests/${requestId}/payments`, { body: { outcome: "paid" } });
    held.runAll();
    await server.server.webhooks.settled();
    expect(held.held()).toBe(0);
    expect(hook.received).toEqual([]);
    expect(await deliveriesOf(server, `requestId=${requestId}`)).toEqual([]);
    problemErrors(await server.call("GET", `/sandbox/webhooks/endpoints/${id}`), "/problems/not-found", 404);
  });
});
