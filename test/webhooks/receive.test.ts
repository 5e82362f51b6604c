import { describe, expect, it, vi } from "vitest";
import {
  createMemoryDeliveryStore,
  createSignedWebhookRequest,
  createWebhookReceiver,
  type DeliveryStore,
  InvalidValueError,
  normaliseWebhookEvent,
  type SignedWebhookRequestOptions,
  signWebhook,
  type WebhookReceiverOptions,
} from "../../src/index.ts";
import { payloadExample, secret } from "./fixtures.ts";

const payload = payloadExample("WebhookPaymentConfirmed");
const deliveryId = "01KX45HY43KWJRP1XPA7Z3DJ8F";

function setup(options: Partial<WebhookReceiverOptions> = {}) {
  const logged: { level: "error" | "warn"; message: string; cause?: unknown }[] = [];
  const onEvent = vi.fn<WebhookReceiverOptions["onEvent"]>();
  const receive = createWebhookReceiver({
    secret,
    onEvent,
    logger: {
      error: (message, cause) => logged.push({ level: "error", message, cause }),
      warn: (message) => logged.push({ level: "warn", message }),
    },
    ...options,
  });
  return { receive, onEvent: (options.onEvent as typeof onEvent | undefined) ?? onEvent, logged };
}

function signed(overrides: Partial<SignedWebhookRequestOptions> = {}) {
  const request = createSignedWebhookRequest({ secret, payload, deliveryId, ...overrides });
  return { headers: request.headers, rawBody: Buffer.from(request.body) };
}

function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe("createWebhookReceiver", () => {
  it("verifies, normalises and hands the event and its delivery to the handler", async () => {
    const { receive, onEvent } = setup();
    const answer = await receive(signed({ retryCount: 2 }));
    expect(answer).toEqual({
      status: 200,
      headers: { "content-type": "application/json; charset=utf-8" },
      body: { received: true },
    });
    expect(onEvent).toHaveBeenCalledTimes(1);
    expect(onEvent).toHaveBeenCalledWith(normaliseWebhookEvent(payload), {
      deliveryId,
      retryCount: 2,
      isTest: false,
    });
    expect(onEvent.mock.calls[0]?.[0]).not.toHaveProperty("requestID");
  });

  it("reads the headers from a fetch Headers object too, and flags test deliveries", async () => {
    const { receive, onEvent } = setup();
    const { headers, rawBody } = signed({ test: true });
    const answer = await receive({ headers: new Headers(headers), rawBody: rawBody.toString("utf8") });
    expect(answer.status).toBe(200);
    expect(onEvent.mock.calls[0]?.[1]).toEqual({ deliveryId, retryCount: 0, isTest: true });
  });

  it("answers 401 with the reason when the body was tampered with, without calling the handler", async () => {
    const { receive, onEvent, logged } = setup();
    const { headers } = signed();
    const answer = await receive({ headers, rawBody: JSON.stringify({ ...payload, amount: "999.00" }) });
    const detail =
      "x-request-network-signature does not match the body: check that the secret is this endpoint's signing secret and that the body is verified exactly as received, not re-serialised.";
    expect(answer).toEqual({
      status: 401,
      headers: { "content-type": "application/problem+json; charset=utf-8" },
      body: {
        type: "/problems/invalid-signature",
        title: "Invalid signature",
        status: 401,
        detail,
        statusCode: 401,
        error: "Unauthorized",
        message: detail,
        reason: "signature_mismatch",
      },
    });
    expect(onEvent).not.toHaveBeenCalled();
    expect(logged).toEqual([{ level: "warn", message: `webhook rejected: ${detail}` }]);
  });

  it("answers 401 for a missing signature", async () => {
    const { receive } = setup();
    const { headers, rawBody } = signed();
    const { "x-request-network-signature": _removed, ...unsigned } = headers;
    const answer = await receive({ headers: unsigned, rawBody });
    expect(answer.status).toBe(401);
    expect(answer.body).toMatchObject({ reason: "missing_signature" });
  });

  it("answers 400 naming the header when the delivery id is missing", async () => {
    const { receive, onEvent } = setup();
    const { headers, rawBody } = signed();
    const { "x-request-network-delivery": _removed, ...rest } = headers;
    const answer = await receive({ headers: rest, rawBody });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      type: "/problems/validation-failed",
      detail: "The x-request-network-delivery header is required.",
      errors: [{ path: "/headers/x-request-network-delivery", message: "is required" }],
    });
    expect(onEvent).not.toHaveBeenCalled();
  });

  it("answers 400 /problems/malformed-json for a signed body that is not JSON", async () => {
    const { receive } = setup();
    const answer = await receive(signed({ payload: "{not json" }));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      type: "/problems/malformed-json",
      statusCode: 400,
      error: "Bad Request",
    });
    expect((answer.body as { detail: string }).detail).toMatch(/^The body is not valid JSON: /);
  });

  it("answers 400 for a signed body that is not UTF-8", async () => {
    const { receive } = setup();
    const rawBody = Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x7d]);
    const { headers } = createSignedWebhookRequest({ secret, payload: "x", deliveryId });
    headers["x-request-network-signature"] = signWebhook(secret, rawBody);
    const answer = await receive({ headers, rawBody });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ detail: "The body is not valid UTF-8; send it as UTF-8 JSON." });
  });

  it.each<[string, unknown, string, string]>([
    [
      "no request id",
      { event: "payment.confirmed", amount: "1.00" },
      "/body/requestId",
      "Invalid requestId: expected requestId or requestID to name the request, got undefined.",
    ],
    [
      "two different request ids",
      { event: "payment.failed", requestId: "01aa", requestID: "01bb" },
      "/body/requestID",
      'Invalid requestID: expected the same value as requestId (01aa), got "01bb".',
    ],
    ["an array", [1, 2], "/body", "Invalid webhook payload: expected a JSON object, got [1,2]."],
    [
      "no event",
      { requestId: "01aa" },
      "/body/event",
      "Invalid event: expected one of payment.confirmed, payment.partial, payment.failed, payment.processing, payment.refunded, request.recurring, compliance.updated, payment_detail.updated, secure_payment.user_event, client_id.linked, kyt.screening.completed, payment.confirmed.client_id, payment.partial.client_id, payment.confirmed.checkout, payment.partial.checkout, secure_payment.access_rejected, got undefined.",
    ],
  ])("answers 400 with the reason for a payload with %s", async (_name, body, path, message) => {
    const { receive, onEvent } = setup();
    const answer = await receive(signed({ payload: body as Record<string, unknown> }));
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      type: "/problems/validation-failed",
      detail: `The webhook payload is invalid: ${message}`,
      errors: [{ path, message }],
    });
    expect(onEvent).not.toHaveBeenCalled();
  });

  it("acknowledges an event it does not know without calling onEvent", async () => {
    const { receive, onEvent } = setup();
    const answer = await receive(signed({ payload: { event: "balance.updated", requestId: "01aa" } }));
    expect(answer).toMatchObject({
      status: 200,
      body: { received: true, ignored: "unknown event balance.updated" },
    });
    expect(onEvent).not.toHaveBeenCalled();
  });

  it("passes unknown events to onUnknownEvent, once per delivery", async () => {
    const onUnknownEvent = vi.fn();
    const { receive, onEvent } = setup({ onUnknownEvent });
    const delivery = signed({ payload: { event: "balance.updated", clientId: "ci_1" } });
    expect((await receive(delivery)).body).toEqual({ received: true });
    expect((await receive(delivery)).body).toEqual({ received: true, duplicate: true });
    expect(onUnknownEvent).toHaveBeenCalledTimes(1);
    expect(onUnknownEvent).toHaveBeenCalledWith(
      { event: "balance.updated", clientId: "ci_1" },
      { deliveryId, retryCount: 0, isTest: false },
    );
    expect(onEvent).not.toHaveBeenCalled();
  });

  it("calls the handler once per delivery id and answers duplicates 200", async () => {
    const { receive, onEvent } = setup();
    expect((await receive(signed())).body).toEqual({ received: true });
    expect((await receive(signed({ retryCount: 1 }))).body).toEqual({ received: true, duplicate: true });
    expect(onEvent).toHaveBeenCalledTimes(1);
    expect((await receive(signed({ deliveryId: "01KX45J0Q3N1V6ZC2M8T4B7R9D" }))).status).toBe(200);
    expect(onEvent).toHaveBeenCalledTimes(2);
  });

  it("answers 500 when the handler throws and processes the retry", async () => {
    const failure = new Error("database unavailable");
    const onEvent = vi.fn<WebhookReceiverOptions["onEvent"]>().mockRejectedValueOnce(failure);
    const { receive, logged } = setup({ onEvent });
    const first = await receive(signed());
    expect(first.status).toBe(500);
    expect(first.body).toMatchObject({
      type: "/problems/internal-error",
      detail:
        "The event handler failed; the delivery was not recorded as processed, so a retry will process it.",
    });
    expect(JSON.stringify(first.body)).not.toContain("database unavailable");
    expect(logged).toEqual([
      { level: "error", message: `webhook delivery ${deliveryId}: the event handler failed`, cause: failure },
    ]);
    expect((await receive(signed({ retryCount: 1 }))).body).toEqual({ received: true });
    expect((await receive(signed({ retryCount: 2 }))).body).toEqual({ received: true, duplicate: true });
    expect(onEvent).toHaveBeenCalledTimes(2);
    expect(onEvent.mock.calls[1]?.[1].retryCount).toBe(1);
  });

  it("answers 409 to a duplicate that arrives while the first attempt is still running", async () => {
    const gate = deferred();
    const entered = deferred();
    const onEvent = vi.fn<WebhookReceiverOptions["onEvent"]>(async () => {
      entered.resolve();
      await gate.promise;
    });
    const { receive } = setup({ onEvent });
    const first = receive(signed());
    await entered.promise;
    const second = await receive(signed({ retryCount: 1 }));
    expect(second).toMatchObject({
      status: 409,
      headers: { "retry-after": "1" },
      body: {
        type: "/problems/delivery-in-progress",
        detail: `Delivery ${deliveryId} is being processed by an earlier attempt; retry later.`,
      },
    });
    gate.resolve();
    expect((await first).status).toBe(200);
    expect((await receive(signed({ retryCount: 2 }))).body).toEqual({ received: true, duplicate: true });
    expect(onEvent).toHaveBeenCalledTimes(1);
  });

  it("calls the handler for every attempt when dedupe is off", async () => {
    const { receive, onEvent } = setup({ dedupe: false });
    await receive(signed());
    await receive(signed());
    expect(onEvent).toHaveBeenCalledTimes(2);
  });

  it("uses the store it is given", async () => {
    const store = createMemoryDeliveryStore();
    store.claim(deliveryId);
    store.markProcessed(deliveryId);
    const { receive, onEvent } = setup({ dedupe: store });
    expect((await receive(signed())).body).toEqual({ received: true, duplicate: true });
    expect(onEvent).not.toHaveBeenCalled();
  });

  it("answers 500 without calling the handler when the store cannot claim", async () => {
    const outage = new Error("connection refused");
    const store: DeliveryStore = {
      claim: () => Promise.reject(outage),
      markProcessed: () => {},
      release: () => {},
    };
    const { receive, onEvent, logged } = setup({ dedupe: store });
    const answer = await receive(signed());
    expect(answer.status).toBe(500);
    expect(answer.body).toMatchObject({
      detail: "The delivery store failed; the delivery was not processed.",
    });
    expect(onEvent).not.toHaveBeenCalled();
    expect(logged).toEqual([
      {
        level: "error",
        message: `webhook delivery ${deliveryId}: the delivery store failed to claim it`,
        cause: outage,
      },
    ]);
  });

  it("answers 200 when the handler succeeded but the store could not record it", async () => {
    const outage = new Error("connection reset");
    const store: DeliveryStore = {
      claim: () => "claimed",
      markProcessed: () => Promise.reject(outage),
      release: () => {},
    };
    const { receive, logged } = setup({ dedupe: store });
    expect((await receive(signed())).status).toBe(200);
    expect(logged).toEqual([
      {
        level: "error",
        message: `webhook: the delivery store failed to record delivery ${deliveryId} as processed`,
        cause: outage,
      },
    ]);
  });

  it("answers 500 /problems/receiver-misconfigured for a parsed body and logs it once", async () => {
    const { receive, onEvent, logged } = setup();
    const { headers } = signed();
    const first = await receive({ headers, rawBody: payload });
    await receive({ headers, rawBody: payload });
    const detail =
      "The body was parsed before verification (got an object, expected the raw bytes as a string or Buffer): verify the bytes exactly as received: mount the middleware before express.json(), or read the body with express.raw().";
    expect(first).toMatchObject({
      status: 500,
      body: { type: "/problems/receiver-misconfigured", title: "Webhook receiver misconfigured", detail },
    });
    expect(logged).toEqual([{ level: "error", message: `webhook receiver misconfigured: ${detail}` }]);
    expect(onEvent).not.toHaveBeenCalled();
  });

  it("answers 500 instead of throwing when given no delivery at all", async () => {
    const { receive } = setup();
    const answer = await receive(undefined as never);
    expect(answer).toMatchObject({
      status: 500,
      body: { detail: "The webhook receiver failed unexpectedly." },
    });
  });

  it.each<[string, Partial<WebhookReceiverOptions>, string]>([
    [
      "an empty secret",
      { secret: "" },
      "Invalid secret: expected a non-empty string or Uint8Array, got an empty string.",
    ],
    ["no handler", { onEvent: undefined as never }, "Invalid onEvent: expected a function, got undefined."],
    [
      "a store without release",
      { dedupe: { claim: () => "claimed", markProcessed: () => {} } as never },
      "Invalid dedupe.release: expected a function (see DeliveryStore), got undefined.",
    ],
  ])("refuses %s when created", (_name, options, message) => {
    const create = () => createWebhookReceiver({ secret, onEvent: () => {}, ...options });
    expect(create).toThrow(InvalidValueError);
    expect(create).toThrow(message);
  });
});
