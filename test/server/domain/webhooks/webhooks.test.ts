import { afterEach, describe, expect, it } from "vitest";
import { browserOrigin, clientId, problemErrors, type TestServer } from "../../helpers.ts";
import { registerEndpoint, startWebhookServer } from "../../webhooks/harness.ts";
import { hasValidSignature, type Receiver, startReceiver } from "../../webhooks/receiver.ts";
import { otherWalletKey, signInWithWallet, walletKey, withSession } from "../auth/sign-in.ts";

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

const asClientId = { auth: "clientId" as const };

describe("createWebhook and testWebhook", () => {
  it("signs in with a wallet, creates a webhook with the session, and delivers a test signed with its secret", async () => {
    const hook = await receiver();
    server = await startWebhookServer();
    const { cookie } = await signInWithWallet(server, walletKey);

    const created = await server.call("POST", "/v1/webhook", {
      ...withSession(cookie),
      body: { url: hook.url },
    });
    expect(created.status).toBe(201);
    const { id, secret } = created.body;
    expect(created.body).toEqual({
      id: expect.stringMatching(/^we_[0-9A-HJKMNP-TV-Z]{26}$/),
      url: hook.url,
      secret: expect.stringMatching(/^whsec_[0-9a-f]{48}$/),
      isActive: true,
      clientId: null,
      createdAt: "2026-04-12T10:00:00.000Z",
    });

    const test = await server.call("POST", "/v1/webhook/test", {
      ...withSession(cookie),
      body: { eventType: "payment.confirmed" },
    });
    expect(test.status).toBe(201);
    expect(test.body).toEqual({
      eventType: "payment.confirmed",
      deliveries: [{ webhookId: id, deliveryId: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/) }],
    });
    await server.server.webhooks.settled();
    expect(hook.received).toHaveLength(1);
    const [delivered] = hook.received;
    if (!delivered) throw new Error("nothing delivered");
    expect(hasValidSignature(delivered, secret)).toBe(true);
    expect(hasValidSignature(delivered, `${secret}0`)).toBe(false);
    expect(delivered.headers["x-request-network-test"]).toBe("true");
    expect(delivered.headers["x-request-network-delivery"]).toBe(test.body.deliveries[0].deliveryId);
    expect(JSON.parse(delivered.body.toString("utf8")).event).toBe("payment.confirmed");
  });

  it("sends an event the sandbox does not produce in the shape the service documents", async () => {
    const hook = await receiver();
    server = await startWebhookServer();
    const { cookie } = await signInWithWallet(server);
    await server.call("POST", "/v1/webhook", { ...withSession(cookie), body: { url: hook.url } });
    const test = await server.call("POST", "/v1/webhook/test", {
      ...withSession(cookie),
      body: { eventType: "secure_payment.access_rejected" },
    });
    expect(test.status).toBe(201);
    await server.server.webhooks.settled();
    expect(JSON.parse(hook.received[0]?.body.toString("utf8") ?? "{}")).toEqual({
      event: "secure_payment.access_rejected",
      requestId: `01${"0".repeat(63)}1`,
      clientId: "pk_test_placeholder",
      orchestratorId: "01KP0000000000000000000000",
      attemptedPayerWalletAddress: `0x${"0".repeat(39)}1`,
      timestamp: "2026-04-12T10:00:00.000Z",
    });
  });

  it("refuses an unknown event type, and answers 404 when no active webhook is in scope", async () => {
    server = await startWebhookServer();
    const { cookie } = await signInWithWallet(server);
    const unknown = await server.call("POST", "/v1/webhook/test", {
      ...withSession(cookie),
      body: { eventType: "invalid.event" },
    });
    expect(problemErrors(unknown, "/problems/validation-failed", 400).map((issue) => issue.path)).toEqual([
      "/body/eventType",
    ]);
    const none = await server.call("POST", "/v1/webhook/test", {
      ...withSession(cookie),
      body: { eventType: "payment.failed" },
    });
    expect([none.status, none.body.detail]).toEqual([
      404,
      "No active webhook is platform-wide in this account; create one with POST /v1/webhook or switch one on.",
    ]);
  });

  it("refuses a second webhook with the same URL and scope, and a client ID of another account", async () => {
    const hook = await receiver();
    server = await startWebhookServer();
    const { cookie } = await signInWithWallet(server);
    const first = await server.call("POST", "/v1/webhook", {
      ...withSession(cookie),
      body: { url: hook.url },
    });
    const again = await server.call("POST", "/v1/webhook", {
      ...withSession(cookie),
      body: { url: hook.url },
    });
    expect(problemErrors(again, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/url", message: `already has a platform-wide webhook (${first.body.id})` },
    ]);
    // The sandbox account's client ID is not the wallet account's.
    const foreign = await server.call("POST", "/v1/webhook", {
      ...withSession(cookie),
      body: { url: hook.url, clientId },
    });
    expect(problemErrors(foreign, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/clientId", message: "is not a client ID of this account" },
    ]);
  });
});

describe("listWebhooks, toggleWebhook and deleteWebhook", () => {
  it("shares its records with the sandbox's webhook endpoints, both ways", async () => {
    const hook = await receiver();
    server = await startWebhookServer();
    const sandbox = await registerEndpoint(server, hook.url);
    // With the sandbox account's client ID: the endpoint the API key registered is platform-wide.
    const listed = await server.call("GET", "/v1/webhook", asClientId);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual([
      {
        id: sandbox.id,
        url: hook.url,
        secret: sandbox.secret,
        isActive: true,
        clientId: null,
        createdAt: "2026-04-12T10:00:00.000Z",
      },
    ]);
    const scoped = await server.call("POST", "/v1/webhook", {
      ...asClientId,
      body: { url: `${hook.url}/scoped` },
    });
    expect([scoped.status, scoped.body.clientId]).toEqual([201, clientId]);
    const endpoint = await server.call("GET", `/sandbox/webhooks/endpoints/${scoped.body.id}`);
    expect([endpoint.status, endpoint.body.url, endpoint.body.secretLast4]).toEqual([
      200,
      `${hook.url}/scoped`,
      scoped.body.secret.slice(-4),
    ]);

    const off = await server.call("PUT", `/v1/webhook/${sandbox.id}`, asClientId);
    expect([off.status, off.body.isActive]).toEqual([200, false]);
    const on = await server.call("PUT", `/v1/webhook/${sandbox.id}`, asClientId);
    expect([on.status, on.body.isActive]).toEqual([200, true]);

    const deleted = await server.call("DELETE", `/v1/webhook/${scoped.body.id}`, asClientId);
    expect([deleted.status, deleted.text]).toEqual([200, ""]);
    expect((await server.call("GET", `/sandbox/webhooks/endpoints/${scoped.body.id}`)).status).toBe(404);
  });

  it("sends nothing to a webhook switched off", async () => {
    const hook = await receiver();
    server = await startWebhookServer();
    const { cookie } = await signInWithWallet(server);
    const created = await server.call("POST", "/v1/webhook", {
      ...withSession(cookie),
      body: { url: hook.url },
    });
    await server.call("PUT", `/v1/webhook/${created.body.id}`, withSession(cookie));
    const test = await server.call("POST", "/v1/webhook/test", {
      ...withSession(cookie),
      body: { eventType: "payment.confirmed" },
    });
    expect(test.status).toBe(404);
    expect(hook.received).toEqual([]);
  });

  it("answers another account's webhook as an unknown one, and refuses a call without a credential", async () => {
    const hook = await receiver();
    server = await startWebhookServer();
    const mine = await signInWithWallet(server, walletKey);
    const theirs = await signInWithWallet(server, otherWalletKey);
    expect(theirs.session.accountId).not.toBe(mine.session.accountId);
    const created = await server.call("POST", "/v1/webhook", {
      ...withSession(mine.cookie),
      body: { url: hook.url },
    });
    const id = created.body.id;
    expect((await server.call("GET", "/v1/webhook", withSession(theirs.cookie))).body).toEqual([]);
    for (const method of ["PUT", "DELETE"]) {
      const answer = await server.call(method, `/v1/webhook/${id}`, withSession(theirs.cookie));
      expect([answer.status, answer.body.detail]).toEqual([404, `No webhook endpoint has the id ${id}.`]);
    }
    const other = await server.call("POST", "/v1/webhook/test", {
      ...withSession(theirs.cookie),
      body: { eventType: "payment.confirmed" },
    });
    expect(other.status).toBe(404);
    // The sandbox account's API key does not reach the wallet account's webhook either.
    expect((await server.call("GET", `/sandbox/webhooks/endpoints/${id}`)).status).toBe(404);

    const anonymous = await server.call("GET", "/v1/webhook", { auth: "none" });
    expect([anonymous.status, anonymous.body.detail]).toEqual([
      401,
      "Send the session_token cookie that POST /v1/auth/login or /v1/auth/wallet/verify set, or a client ID in x-client-id together with Origin.",
    ]);
    const foreignOrigin = await server.call("GET", "/v1/webhook", {
      auth: "none",
      headers: { "x-client-id": clientId, origin: "https://evil.example" },
    });
    expect(foreignOrigin.status).toBe(403);
    expect(browserOrigin).toBe("http://localhost:5173");
  });
});
