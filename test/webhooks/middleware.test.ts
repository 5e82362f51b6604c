import { once } from "node:events";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import express, { type Express } from "express";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  createSignedWebhookRequest,
  createWebhookMiddleware,
  normaliseWebhookEvent,
  type SignedWebhookRequestOptions,
  type WebhookMiddlewareOptions,
} from "../../src/index.ts";
import { payloadExample, secret } from "./fixtures.ts";

const payload = payloadExample("WebhookPaymentConfirmed");
const deliveryId = "01KX45HY43KWJRP1XPA7Z3DJ8F";
const servers: http.Server[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
});

async function listen(server: http.Server): Promise<string> {
  servers.push(server);
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks`;
}

/** An Express app with the middleware on POST /webhooks, after whatever `before` mounts. */
async function startApp(options: Partial<WebhookMiddlewareOptions> = {}, before?: (app: Express) => void) {
  const onEvent = vi.fn<WebhookMiddlewareOptions["onEvent"]>();
  const errors: string[] = [];
  const app = express();
  before?.(app);
  app.post(
    "/webhooks",
    createWebhookMiddleware({
      secret,
      onEvent,
      logger: { error: (message) => errors.push(message) },
      ...options,
    }),
  );
  const url = await listen(http.createServer(app));
  return { url, onEvent: (options.onEvent as typeof onEvent | undefined) ?? onEvent, errors };
}

async function post(url: string, request: { body: string | Uint8Array; headers: Record<string, string> }) {
  const response = await fetch(url, { method: "POST", body: request.body, headers: request.headers });
  return { status: response.status, type: response.headers.get("content-type"), body: await response.json() };
}

function signed(overrides: Partial<SignedWebhookRequestOptions> = {}) {
  return createSignedWebhookRequest({ secret, payload, deliveryId, ...overrides });
}

describe("createWebhookMiddleware on Express", () => {
  it("answers 200 to a valid delivery and calls the handler once with the normalised event", async () => {
    const { url, onEvent } = await startApp();
    const answer = await post(url, signed({ retryCount: 0 }));
    expect(answer).toEqual({
      status: 200,
      type: "application/json; charset=utf-8",
      body: { received: true },
    });
    expect(onEvent).toHaveBeenCalledTimes(1);
    expect(onEvent).toHaveBeenCalledWith(normaliseWebhookEvent(payload), {
      deliveryId,
      retryCount: 0,
      isTest: false,
    });
  });

  it("answers 401 Problem Details to a tampered body without calling the handler", async () => {
    const { url, onEvent } = await startApp();
    const request = signed();
    const answer = await post(url, { ...request, body: request.body.replace("125.00", "1.00") });
    expect(answer.status).toBe(401);
    expect(answer.type).toBe("application/problem+json; charset=utf-8");
    expect(answer.body).toMatchObject({
      type: "/problems/invalid-signature",
      status: 401,
      statusCode: 401,
      error: "Unauthorized",
      reason: "signature_mismatch",
    });
    expect(onEvent).not.toHaveBeenCalled();
  });

  it("calls the handler once for a delivery id sent twice", async () => {
    const { url, onEvent } = await startApp();
    expect((await post(url, signed())).body).toEqual({ received: true });
    expect(await post(url, signed({ retryCount: 1 }))).toMatchObject({
      status: 200,
      body: { received: true, duplicate: true },
    });
    expect(onEvent).toHaveBeenCalledTimes(1);
  });

  it("answers 500 when the handler throws, then processes the retry", async () => {
    const onEvent = vi
      .fn<WebhookMiddlewareOptions["onEvent"]>()
      .mockRejectedValueOnce(new Error("queue full"));
    const { url, errors } = await startApp({ onEvent });
    expect((await post(url, signed())).status).toBe(500);
    expect(await post(url, signed({ retryCount: 1 }))).toMatchObject({
      status: 200,
      body: { received: true },
    });
    expect(onEvent).toHaveBeenCalledTimes(2);
    expect(onEvent.mock.calls.map(([, delivery]) => delivery.retryCount)).toEqual([0, 1]);
    expect(errors).toEqual([`webhook delivery ${deliveryId}: the event handler failed`]);
  });

  it("answers 409 to a concurrent duplicate and runs the handler once", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const started = new Promise<void>((resolve) => (entered = resolve));
    const onEvent = vi.fn<WebhookMiddlewareOptions["onEvent"]>(async () => {
      entered();
      await gate;
    });
    const { url } = await startApp({ onEvent });
    const first = post(url, signed());
    await started;
    expect(await post(url, signed({ retryCount: 1 }))).toMatchObject({
      status: 409,
      body: { type: "/problems/delivery-in-progress" },
    });
    release();
    expect((await first).status).toBe(200);
    expect(onEvent).toHaveBeenCalledTimes(1);
  });

  it("answers a clear configuration error when express.json() runs first, logged once", async () => {
    const { url, onEvent, errors } = await startApp({}, (app) => app.use(express.json()));
    const first = await post(url, signed());
    const second = await post(url, signed({ deliveryId: "01KX45J0Q3N1V6ZC2M8T4B7R9D" }));
    const detail =
      "The body was parsed before verification (got an object, expected the raw bytes as a string or Buffer): verify the bytes exactly as received: mount the middleware before express.json(), or read the body with express.raw().";
    expect(first).toEqual({
      status: 500,
      type: "application/problem+json; charset=utf-8",
      body: {
        type: "/problems/receiver-misconfigured",
        title: "Webhook receiver misconfigured",
        status: 500,
        detail,
        statusCode: 500,
        error: "Internal Server Error",
        message: detail,
      },
    });
    expect(second.status).toBe(500);
    expect(errors).toEqual([`webhook receiver misconfigured: ${detail}`]);
    expect(onEvent).not.toHaveBeenCalled();
  });

  it("verifies the raw bytes an earlier express.json() kept in req.rawBody", async () => {
    const { url, onEvent } = await startApp({}, (app) =>
      app.use(
        express.json({
          verify: (req, _res, buffer) => {
            (req as unknown as { rawBody: Buffer }).rawBody = buffer;
          },
        }),
      ),
    );
    expect((await post(url, signed())).status).toBe(200);
    expect(onEvent).toHaveBeenCalledTimes(1);
  });

  it("verifies the bytes express.raw() read before it", async () => {
    const { url, onEvent } = await startApp({}, (app) => app.use(express.raw({ type: "application/json" })));
    expect(await post(url, signed())).toEqual({
      status: 200,
      type: "application/json; charset=utf-8",
      body: { received: true },
    });
    expect(onEvent).toHaveBeenCalledTimes(1);
  });

  it("answers 413 to a body over 1 MiB", async () => {
    const { url, onEvent } = await startApp();
    const body = JSON.stringify({ ...payload, padding: "x".repeat(1_048_576) });
    const answer = await post(url, { body, headers: signed({ payload: body }).headers });
    expect(answer).toMatchObject({
      status: 413,
      body: {
        type: "/problems/payload-too-large",
        detail: `The body is ${Buffer.byteLength(body)} bytes; the limit is 1048576 bytes.`,
      },
    });
    expect(onEvent).not.toHaveBeenCalled();
  });

  it("answers 413 to a chunked body that grows past limitBytes", async () => {
    const { url } = await startApp({ limitBytes: 64 });
    const request = signed();
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(request.body.slice(0, 50)));
        controller.enqueue(new TextEncoder().encode(request.body.slice(50)));
        controller.close();
      },
    });
    const response = await fetch(url, {
      method: "POST",
      body: stream,
      headers: request.headers,
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({
      detail: "The body is larger than the limit; the limit is 64 bytes.",
    });
  });

  it("answers 415 to a compressed body, whose bytes are not the signed ones", async () => {
    const { url } = await startApp();
    const request = signed();
    const answer = await post(url, {
      body: gzipSync(request.body),
      headers: { ...request.headers, "content-encoding": "gzip" },
    });
    expect(answer).toMatchObject({
      status: 415,
      body: { detail: "The body is sent with Content-Encoding gzip; send it uncompressed, as signed." },
    });
  });
});

describe("createWebhookMiddleware options", () => {
  it("refuses a limitBytes that is not a positive whole number, naming it", () => {
    const create = () => createWebhookMiddleware({ secret, onEvent: () => {}, limitBytes: 0 });
    expect(create).toThrow("Invalid limitBytes: expected a positive whole number of bytes, got 0.");
  });
});

describe("createWebhookMiddleware on node:http", () => {
  it("works as a plain request listener", async () => {
    const onEvent = vi.fn();
    const receive = createWebhookMiddleware({ secret, onEvent, logger: { error: () => {} } });
    const url = await listen(http.createServer(receive));
    expect((await post(url, signed({ test: true }))).body).toEqual({ received: true });
    expect(onEvent).toHaveBeenCalledWith(normaliseWebhookEvent(payload), {
      deliveryId,
      retryCount: 0,
      isTest: true,
    });
  });
});
