import { once } from "node:events";
import { createServer, type RequestListener, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import {
  type ReceivedDelivery,
  type RunningWebhookListener,
  startWebhookListener,
  type WebhookListenerOptions,
} from "../../src/cli/webhooks/webhook-listener.ts";
import { createSignedWebhookRequest } from "../../src/webhooks/index.ts";
import { findFreePort } from "../support/prism.ts";

// The listener in-process, for the answers the end-to-end tests in webhooks.test.ts do not reach.

const secret = "whsec_listener_test_3e1f";
const payload = { event: "payment.confirmed", requestId: `01${"cd".repeat(32)}` };
const listeners: RunningWebhookListener[] = [];
const endpoints: Server[] = [];

afterEach(async () => {
  await Promise.all(listeners.splice(0).map((listener) => listener.close()));
  await Promise.all(
    endpoints.splice(0).map((endpoint) => {
      endpoint.closeAllConnections();
      return new Promise((resolve) => endpoint.close(resolve));
    }),
  );
});

async function startListener(options: Partial<WebhookListenerOptions> = {}) {
  const deliveries: ReceivedDelivery[] = [];
  const listener = await startWebhookListener({
    port: 0,
    host: "127.0.0.1",
    secret: () => secret,
    forwardTo: undefined,
    forwardTimeoutMs: 5_000,
    onDelivery: (delivery) => deliveries.push(delivery),
    ...options,
  });
  listeners.push(listener);
  return { url: listener.url, deliveries };
}

/** The integrator's endpoint, answering as `handle` does. */
async function startEndpoint(handle: RequestListener): Promise<string> {
  const endpoint = createServer(handle);
  endpoints.push(endpoint);
  endpoint.listen(0, "127.0.0.1");
  await once(endpoint, "listening");
  return `http://127.0.0.1:${(endpoint.address() as AddressInfo).port}/hooks`;
}

async function post(url: string, body: string | Uint8Array, headers: Record<string, string>) {
  const response = await fetch(url, { method: "POST", body, headers });
  return { status: response.status, type: response.headers.get("content-type"), body: await response.text() };
}

function problem(type: string, title: string, status: number, error: string, detail: string): string {
  return JSON.stringify({ type, title, status, detail, statusCode: status, error, message: detail });
}

describe("startWebhookListener", () => {
  it("answers 503 with Retry-After until the secret is known, reporting nothing", async () => {
    const { url, deliveries } = await startListener({ secret: () => undefined });
    const delivery = createSignedWebhookRequest({ secret, payload });
    const response = await fetch(url, { method: "POST", body: delivery.body, headers: delivery.headers });
    expect(response.status).toBe(503);
    expect(response.headers.get("retry-after")).toBe("1");
    expect(await response.text()).toBe("payreq webhook listener: not ready yet.\n");
    expect(deliveries).toEqual([]);
  });

  it("answers 200 to GET and 405 to other methods than POST, naming the allowed ones", async () => {
    const { url } = await startListener();
    const text = "payreq webhook listener: the service POSTs deliveries here.\n";
    const get = await fetch(url);
    expect([get.status, get.headers.get("allow"), await get.text()]).toEqual([200, "GET, POST", text]);
    const put = await fetch(url, { method: "PUT", body: "{}" });
    expect([put.status, put.headers.get("allow"), await put.text()]).toEqual([405, "GET, POST", text]);
  });

  it("answers 400 to a signed body that is not JSON, and reports it", async () => {
    const { url, deliveries } = await startListener();
    const delivery = createSignedWebhookRequest({ secret, payload: "{not json" });
    expect(await post(url, delivery.body, delivery.headers)).toEqual({
      status: 400,
      type: "application/problem+json; charset=utf-8",
      body: problem(
        "/problems/malformed-json",
        "Malformed JSON",
        400,
        "Bad Request",
        "The body is not UTF-8 JSON.",
      ),
    });
    expect(deliveries.map(({ status, payload }) => ({ status, payload }))).toEqual([
      { status: 400, payload: undefined },
    ]);
  });

  it("answers 413 to a body over 1 MiB without reading it", async () => {
    const { url, deliveries } = await startListener();
    const body = "x".repeat(1_048_577);
    expect(await post(url, body, createSignedWebhookRequest({ secret, payload: body }).headers)).toEqual({
      status: 413,
      type: "application/problem+json; charset=utf-8",
      body: problem(
        "/problems/payload-too-large",
        "Payload too large",
        413,
        "Payload Too Large",
        "The body is 1048577 bytes; the limit is 1048576 bytes.",
      ),
    });
    expect(deliveries).toEqual([]);
  });

  it("answers 415 to a compressed body, whose bytes are not the signed ones", async () => {
    const { url, deliveries } = await startListener();
    const delivery = createSignedWebhookRequest({ secret, payload });
    const answer = await post(url, gzipSync(delivery.body), {
      ...delivery.headers,
      "content-encoding": "gzip",
    });
    expect(answer).toEqual({
      status: 415,
      type: "application/problem+json; charset=utf-8",
      body: problem(
        "/problems/unsupported-media-type",
        "Unsupported media type",
        415,
        "Unsupported Media Type",
        "The body is sent with Content-Encoding gzip; send it uncompressed, as signed.",
      ),
    });
    expect(deliveries).toEqual([]);
  });

  it("answers 502 when the endpoint cannot be reached", async () => {
    const forwardTo = `http://127.0.0.1:${await findFreePort()}/hooks`;
    const { url, deliveries } = await startListener({ forwardTo });
    const delivery = createSignedWebhookRequest({ secret, payload });
    const detail = `${forwardTo}: connection refused (ECONNREFUSED)`;
    expect(await post(url, delivery.body, delivery.headers)).toEqual({
      status: 502,
      type: "application/problem+json; charset=utf-8",
      body: problem("/problems/forward-failed", "Bad Gateway", 502, "Bad Gateway", detail),
    });
    expect(deliveries.map(({ status, forward }) => ({ status, forward }))).toEqual([
      { status: 502, forward: { reached: false, status: 502, reason: "connection refused (ECONNREFUSED)" } },
    ]);
  });

  it("answers 504 when the endpoint does not answer within forwardTimeoutMs", async () => {
    // Never answers; afterEach closes its connection.
    const forwardTo = await startEndpoint(() => {});
    const { url, deliveries } = await startListener({ forwardTo, forwardTimeoutMs: 100 });
    const delivery = createSignedWebhookRequest({ secret, payload });
    const detail = `${forwardTo}: no answer within 0.1 s`;
    expect(await post(url, delivery.body, delivery.headers)).toEqual({
      status: 504,
      type: "application/problem+json; charset=utf-8",
      body: problem("/problems/forward-timeout", "Gateway Timeout", 504, "Gateway Timeout", detail),
    });
    expect(deliveries.map(({ status, forward }) => ({ status, forward }))).toEqual([
      { status: 504, forward: { reached: false, status: 504, reason: "no answer within 0.1 s" } },
    ]);
  });

  it("passes back the first 64 KiB of the endpoint's answer, with its status and type", async () => {
    const answer = Buffer.from(Array.from({ length: 70_000 }, (_, index) => index % 251));
    const forwardTo = await startEndpoint((_req, res) => {
      res.writeHead(500, { "content-type": "application/octet-stream" }).end(answer);
    });
    const { url } = await startListener({ forwardTo });
    const delivery = createSignedWebhookRequest({ secret, payload });
    const response = await fetch(url, { method: "POST", body: delivery.body, headers: delivery.headers });
    expect(response.status).toBe(500);
    expect(response.headers.get("content-type")).toBe("application/octet-stream");
    const passedBack = Buffer.from(await response.arrayBuffer());
    expect(passedBack.length).toBe(65_536);
    expect(passedBack.equals(answer.subarray(0, 65_536))).toBe(true);
  });
});
