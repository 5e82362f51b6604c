import { afterEach, describe, expect, it } from "vitest";
import type { TestServer } from "../helpers.ts";
import {
  createRequest,
  deliveriesOf,
  recordPayment,
  registerEndpoint,
  startWebhookServer,
} from "./harness.ts";
import { hasValidSignature, type Receiver, startReceiver } from "./receiver.ts";

const ulid = /^[0-9A-HJKMNP-TV-Z]{26}$/;
let server: TestServer | undefined;
const receivers: Receiver[] = [];

async function receiver(...replies: Parameters<typeof startReceiver>): Promise<Receiver> {
  const started = await startReceiver(...replies);
  receivers.push(started);
  return started;
}

afterEach(async () => {
  await server?.close();
  server = undefined;
  await Promise.all(receivers.splice(0).map((r) => r.close()));
});

describe("retries, listSandboxWebhookDeliveries, getSandboxWebhookDelivery and redeliverSandboxWebhook", () => {
  it("retries a receiver that fails twice, which then processes the event exactly once", async () => {
    const hook = await receiver({ status: 500, body: "boom" }, { status: 503 }, { status: 200, body: "ok" });
    server = await startWebhookServer();
    const endpoint = await registerEndpoint(server, hook.url);
    const requestId = await createRequest(server);
    await recordPayment(server, requestId, { outcome: "paid" });

    expect(hook.received).toHaveLength(3);
    const deliveryIds = hook.received.map((webhook) => webhook.headers["x-request-network-delivery"]);
    expect(new Set(deliveryIds).size).toBe(1);
    expect(deliveryIds[0]).toMatch(ulid);
    expect(hook.received.map((webhook) => webhook.headers["x-request-network-retry-count"])).toEqual([
      "0",
      "1",
      "2",
    ]);
    for (const webhook of hook.received) {
      expect(hasValidSignature(webhook, endpoint.secret)).toBe(true);
      expect(webhook.headers["content-type"]).toBe("application/json");
      expect(webhook.headers["x-request-network-test"]).toBeUndefined();
      // The same bytes on every attempt.
      expect(webhook.body.equals(hook.received[0]?.body as Buffer)).toBe(true);
    }
    expect(hook.processed).toEqual([deliveryIds[0]]);

    const [delivery] = await deliveriesOf(server, `requestId=${requestId}`);
    expect(delivery).toMatchObject({
      id: deliveryIds[0],
      endpointId: endpoint.id,
      event: "payment.confirmed",
      requestId,
      test: false,
      state: "delivered",
      deadReason: null,
      nextAttemptAt: null,
    });
    expect(
      delivery.attempts.map((a: Record<string, unknown>) => [
        a.retryCount,
        a.trigger,
        a.statusCode,
        a.error,
        a.responseExcerpt,
        a.succeeded,
      ]),
    ).toEqual([
      [0, "initial", 500, "answered 500, not 2xx", "boom", false],
      [1, "retry", 503, "answered 503, not 2xx", null, false],
      [2, "retry", 200, null, "ok", true],
    ]);
    expect(delivery.attempts.map((a: { startedAt: string }) => a.startedAt)).toEqual([
      "2026-04-12T10:00:00.000Z",
      "2026-04-12T10:00:00.000Z",
      "2026-04-12T10:00:00.000Z",
    ]);
    expect(JSON.parse(hook.received[0]?.body.toString("utf8") as string)).toEqual(delivery.payload);
  });

  it("gives up on a receiver that never answers: four timed-out attempts, then dead", async () => {
    const hook = await receiver({ hang: true });
    server = await startWebhookServer({ settings: { webhookTimeoutMs: 200 } });
    await registerEndpoint(server, hook.url);
    const requestId = await createRequest(server);
    await recordPayment(server, requestId, { outcome: "failed" });

    expect(hook.received.map((webhook) => webhook.headers["x-request-network-retry-count"])).toEqual([
      "0",
      "1",
      "2",
      "3",
    ]);
    const [delivery] = await deliveriesOf(server, `requestId=${requestId}`);
    expect(delivery).toMatchObject({ state: "dead", deadReason: "attempts_exhausted", nextAttemptAt: null });
    expect(delivery.attempts).toHaveLength(4);
    for (const attempt of delivery.attempts) {
      expect(attempt).toMatchObject({
        statusCode: null,
        error: "timeout: no answer within 200 ms",
        succeeded: false,
      });
    }
  });

  it("redelivers a dead delivery with the same id, recording the new round after the old one", async () => {
    const hook = await receiver({ status: 500 });
    server = await startWebhookServer();
    const endpoint = await registerEndpoint(server, hook.url);
    const requestId = await createRequest(server);
    await recordPayment(server, requestId, { outcome: "partial", amount: "25" });
    const [dead] = await deliveriesOf(server, `requestId=${requestId}`);
    expect(dead).toMatchObject({ state: "dead", event: "payment.partial" });
    expect(dead.attempts).toHaveLength(4);

    hook.reply({ status: 204 });
    server.clock.set("2026-04-12T11:00:00.000Z");
    const answer = await server.call("POST", `/sandbox/webhooks/deliveries/${dead.id}/redeliver`);
    expect(answer.status).toBe(202);
    expect(answer.body).toMatchObject({ id: dead.id, state: "pending", deadReason: null });
    await server.server.webhooks.settled();

    const redelivered = (await server.call("GET", `/sandbox/webhooks/deliveries/${dead.id}`)).body;
    expect(redelivered.state).toBe("delivered");
    expect(redelivered.attempts).toHaveLength(5);
    expect(redelivered.attempts[4]).toMatchObject({
      retryCount: 0,
      trigger: "redelivery",
      statusCode: 204,
      succeeded: true,
      startedAt: "2026-04-12T11:00:00.000Z",
    });
    const last = hook.received.at(-1);
    expect(hook.received).toHaveLength(5);
    expect(last?.headers["x-request-network-delivery"]).toBe(dead.id);
    expect(last?.headers["x-request-network-retry-count"]).toBe("0");
    expect(hasValidSignature(last as NonNullable<typeof last>, endpoint.secret)).toBe(true);
    expect(hook.processed).toEqual([dead.id]);
  });

  it("counts a redirect as a failed attempt and never follows it", async () => {
    const elsewhere = await receiver({ status: 200 });
    const hook = await receiver({ status: 307, headers: { location: elsewhere.url } });
    server = await startWebhookServer();
    await registerEndpoint(server, hook.url);
    const requestId = await createRequest(server);
    await recordPayment(server, requestId, { outcome: "paid" });

    expect(elsewhere.received).toEqual([]);
    const [delivery] = await deliveriesOf(server, `requestId=${requestId}`);
    expect(delivery.state).toBe("dead");
    expect(delivery.attempts.map((a: { error: string }) => a.error)).toEqual(
      Array(4).fill("answered 307: redirects are not followed"),
    );
  });

  it("survives resets, refused connections and huge answers, reading only the start of an answer", async () => {
    const hook = await receiver({ reset: true }, { hugeBodyBytes: 64 * 1024 * 1024 });
    server = await startWebhookServer();
    await registerEndpoint(server, hook.url);
    const closed = await startReceiver();
    await closed.close();
    await registerEndpoint(server, closed.url);
    const requestId = await createRequest(server);
    await recordPayment(server, requestId, { outcome: "paid" });

    const deliveries = await deliveriesOf(server, `requestId=${requestId}`);
    const toHook = deliveries.find((d) => d.url === hook.url);
    expect(toHook.state).toBe("delivered");
    expect(toHook.attempts[0]).toMatchObject({
      statusCode: null,
      error: "connection reset by the peer (ECONNRESET)",
    });
    expect(toHook.attempts[1]).toMatchObject({ statusCode: 200, succeeded: true });
    expect(toHook.attempts[1].responseExcerpt).toBe("x".repeat(512));
    // The sender dropped the connection long before the 64 MiB were written.
    expect(hook.hugeBodyBytesWritten).toBeLessThan(64 * 1024 * 1024);

    const toClosed = deliveries.find((d) => d.url === closed.url);
    expect(toClosed.state).toBe("dead");
    expect(toClosed.attempts[0].error).toBe("connection refused (ECONNREFUSED)");
  });
});
