import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createPostgresStore, type Store } from "../../../../src/server/index.ts";
import { describeWithPostgres, sharedPostgres } from "../../../support/postgres.ts";
import { payee, type TestServer } from "../../helpers.ts";
import { allDeliveriesFinished } from "../../shared-sandbox/outbox-drained.ts";
import { startWebhookServer } from "../../webhooks/harness.ts";
import { type Receiver, startReceiver } from "../../webhooks/receiver.ts";

// The test clock starts at 2026-04-12T10:00:00.000Z.
const invoice = { payee, amount: "150", invoiceCurrency: "USD", paymentCurrency: "USDC-base" };

let hook: Receiver;
let server: TestServer | undefined;
beforeAll(async () => {
  hook = await startReceiver();
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  hook.received.length = 0;
});
afterAll(() => hook.close());

async function start(): Promise<TestServer> {
  server = await startWebhookServer({ endpoints: [{ url: hook.url, events: ["request.recurring"] }] });
  return server;
}

async function createRecurring(on: TestServer, recurrence: Record<string, string>) {
  const answer = await on.call("POST", "/v2/request", { body: { ...invoice, recurrence } });
  expect(answer.status, answer.text).toBe(201);
  return answer.body as { requestId: string; paymentReference: string };
}

async function moveClock(on: TestServer, body: Record<string, unknown>) {
  const answer = await on.call("POST", "/sandbox/clock", { body });
  expect(answer.status, answer.text).toBe(200);
  await on.server.webhooks.settled();
  return answer.body as { now: string };
}

const recurringPayloads = () =>
  hook.received
    .map((webhook) => JSON.parse(webhook.body.toString("utf8")) as Record<string, unknown>)
    .filter((payload) => payload.event === "request.recurring");

describe("later periods of a recurring request (POST /sandbox/clock)", () => {
  it("creates the next period once the clock passes it, with request.recurring naming the first", async () => {
    const on = await start();
    const original = await createRecurring(on, { startDate: "2026-04-12", frequency: "DAILY" });
    await moveClock(on, { now: "2026-04-12T23:59:59Z" });
    expect(recurringPayloads()).toEqual([]);

    await moveClock(on, { now: "2026-04-13T00:00:00Z" });
    const [sent, ...more] = recurringPayloads();
    expect(more).toEqual([]);
    const newId = sent?.requestId as string;
    expect(newId).toMatch(/^01[0-9a-f]{64}$/);
    expect(newId).not.toBe(original.requestId);
    expect(sent).toEqual({
      event: "request.recurring",
      requestId: newId,
      requestID: newId,
      paymentReference: sent?.paymentReference,
      explorer: `https://scan.request.network/request/${newId}`,
      originalRequestId: original.requestId,
      originalRequestPaymentReference: original.paymentReference,
      timestamp: "2026-04-13T00:00:00.000Z",
      paymentProcessor: "request-network",
    });
    expect(sent?.paymentReference).toMatch(/^0x[0-9a-f]{16}$/);
    expect(sent?.paymentReference).not.toBe(original.paymentReference);

    const period = await on.call("GET", `/v2/request/${newId}`);
    expect(period.status).toBe(200);
    expect(period.body).toMatchObject({
      paymentReference: sent?.paymentReference,
      hasBeenPaid: false,
      isRecurrenceStopped: false,
      originalRequestId: original.requestId,
    });
    const stored = await on.call("GET", `/sandbox/requests/${newId}`);
    expect(stored.body).toMatchObject({
      payee,
      amount: "150",
      invoiceCurrency: "USD",
      paymentCurrency: "USDC-base",
      expectedAmount: "150",
      status: "pending",
    });
  });

  it("creates each period a jump passes, and none when the clock is moved to the same time again", async () => {
    const on = await start();
    const original = await createRecurring(on, {
      startDate: "2026-04-12T10:00:00.000Z",
      frequency: "WEEKLY",
    });
    await moveClock(on, { advanceSeconds: 3 * 7 * 86_400 + 60 });
    const payloads = recurringPayloads();
    expect(payloads.map((payload) => payload.originalRequestId)).toEqual([
      original.requestId,
      original.requestId,
      original.requestId,
    ]);
    expect(new Set(payloads.map((payload) => payload.requestId)).size).toBe(3);
    expect(payloads.map((payload) => payload.timestamp)).toEqual([
      "2026-05-03T10:01:00.000Z",
      "2026-05-03T10:01:00.000Z",
      "2026-05-03T10:01:00.000Z",
    ]);

    await moveClock(on, { now: "2026-05-03T10:01:00Z" });
    await moveClock(on, { advanceSeconds: 86_400 });
    expect(recurringPayloads()).toHaveLength(3);
    await moveClock(on, { now: "2026-05-10T10:00:00Z" });
    expect(recurringPayloads()).toHaveLength(4);
  });

  it("creates no period of a request whose recurrence was stopped, by v2 or by v1", async () => {
    const on = await start();
    const byV2 = await createRecurring(on, { startDate: "2026-04-12", frequency: "DAILY" });
    const byV1 = await createRecurring(on, { startDate: "2026-04-12", frequency: "DAILY" });
    const stopV2 = await on.call("PATCH", `/v2/request/${byV2.requestId}`, {
      body: { isRecurrenceStopped: true },
    });
    expect(stopV2.status, stopV2.text).toBe(200);
    const stopV1 = await on.call("PATCH", `/v1/request/${byV1.paymentReference}/stop-recurrence`);
    expect(stopV1.status, stopV1.text).toBe(200);

    await moveClock(on, { now: "2026-04-15T12:00:00Z" });
    expect(recurringPayloads()).toEqual([]);
  });

  it("skips the periods that started while stopped when the recurrence is resumed", async () => {
    const on = await start();
    const original = await createRecurring(on, { startDate: "2026-04-12", frequency: "DAILY" });
    await on.call("PATCH", `/v2/request/${original.requestId}`, { body: { isRecurrenceStopped: true } });
    await moveClock(on, { now: "2026-04-15T12:00:00Z" });
    const resumed = await on.call("PATCH", `/v2/request/${original.requestId}`, {
      body: { isRecurrenceStopped: false },
    });
    expect(resumed.status, resumed.text).toBe(200);
    await moveClock(on, { now: "2026-04-15T23:00:00Z" });
    expect(recurringPayloads()).toEqual([]);
    await moveClock(on, { now: "2026-04-16T00:00:00Z" });
    expect(recurringPayloads().map((payload) => payload.timestamp)).toEqual(["2026-04-16T00:00:00.000Z"]);
  });
});

describeWithPostgres("later periods of a recurring request, two instances on one PostgreSQL database", () => {
  const stores: Store[] = [];
  const instances: TestServer[] = [];
  afterAll(async () => {
    await Promise.all(instances.map((instance) => instance.close()));
    await Promise.all(stores.map((store) => store.close()));
  });

  it("creates each period once when both move the clock past it at the same time", async () => {
    const url = await (await sharedPostgres()).createMigratedDatabase();
    for (let n = 0; n < 2; n++) {
      const store = await createPostgresStore({ connectionString: url });
      stores.push(store);
      instances.push(
        await startWebhookServer({
          store,
          endpoints: [{ url: hook.url, events: ["request.recurring"] }],
          settings: { webhookPollIntervalMs: 100 },
        }),
      );
    }
    const [first, second] = instances as [TestServer, TestServer];
    const original = await createRecurring(first, { startDate: "2026-04-12", frequency: "DAILY" });

    const moves = await Promise.all([
      first.call("POST", "/sandbox/clock", { body: { now: "2026-04-15T10:00:00Z" } }),
      second.call("POST", "/sandbox/clock", { body: { now: "2026-04-15T10:00:00Z" } }),
      first.call("POST", "/sandbox/clock", { body: { now: "2026-04-15T10:00:00Z" } }),
    ]);
    expect(moves.map((move) => move.status)).toEqual([200, 200, 200]);
    await allDeliveriesFinished(stores[0] as Store);

    const payloads = recurringPayloads();
    expect(payloads.map((payload) => payload.originalRequestId)).toEqual([
      original.requestId,
      original.requestId,
      original.requestId,
    ]);
    const ids = payloads.map((payload) => payload.requestId as string);
    expect(new Set(ids).size).toBe(3);
    for (const id of ids) {
      const period = await second.call("GET", `/v2/request/${id}`);
      expect(period.body.originalRequestId).toBe(original.requestId);
    }
  });
});
