import { afterEach, describe, expect, it, vi } from "vitest";
import { createPostgresStore, type Store } from "../../../src/server/index.ts";
import { describeWithPostgres, sharedPostgres } from "../../support/postgres.ts";
import type { TestServer } from "../helpers.ts";
import { createRequest, deliveriesOf, startWebhookServer } from "./harness.ts";
import { type Receiver, startReceiver } from "./receiver.ts";

// A receiver that never answers holds every attempt for the whole timeout. However many
// deliveries wait, a server keeps at most the configured number of attempts open at once, in all
// and to any one endpoint; the others wait their turn without opening a connection.

const bounds = { maxConcurrentWebhookAttempts: 5, maxConcurrentWebhookAttemptsPerEndpoint: 2 };
const endpointCount = 3;
const paidRequests = 10;

let server: TestServer | undefined;
let store: Store | undefined;
let hook: Receiver | undefined;
afterEach(async () => {
  await server?.close();
  await store?.close();
  await hook?.close();
  server = store = hook = undefined;
});

/**
 * A server on the store `create` opens (undefined: the in-memory one) sends 30 deliveries, twice
 * each, to a receiver that never answers.
 */
async function expectBoundedAttempts(create: () => Promise<Store | undefined>): Promise<void> {
  hook = await startReceiver({ hang: true });
  const receiver = hook;
  const urls = Array.from({ length: endpointCount }, (_, index) => `${receiver.url}?endpoint=${index}`);
  store = await create();
  server = await startWebhookServer({
    ...(store ? { store } : {}),
    endpoints: urls.map((url) => ({ url })),
    settings: {
      ...bounds,
      // Long enough for each attempt to reach the receiver on a busy machine before it times out.
      webhookTimeoutMs: 300,
      webhookRetryDelaysMs: [10],
      webhookPollIntervalMs: 20,
    },
  });
  const running = server;
  const requestIds = await Promise.all(Array.from({ length: paidRequests }, () => createRequest(running)));
  for (const requestId of requestIds) {
    const paid = await running.call("POST", `/sandbox/requests/${requestId}/payments`, {
      body: { outcome: "paid" },
    });
    expect(paid.status).toBe(201);
  }
  const deliveries = paidRequests * endpointCount;

  // Each delivery is tried twice (the first attempt and its one retry), then given up. Waiting on
  // the log rather than on arrivals: on a busy machine an attempt can time out before it arrives,
  // which the length check below then reports instead of a wait that never ends.
  await vi.waitFor(
    async () => {
      const states = (await deliveriesOf(running, "limit=500")).map((delivery) => delivery.state);
      expect(states.filter((state) => state === "dead")).toHaveLength(deliveries);
    },
    { timeout: 60_000, interval: 100 },
  );
  await running.server.webhooks.settled();

  expect(receiver.received).toHaveLength(deliveries * 2);
  expect(receiver.mostOpen.total).toBeLessThanOrEqual(bounds.maxConcurrentWebhookAttempts);
  expect(Object.keys(receiver.mostOpen.byUrl).sort()).toEqual(
    urls.map((url) => new URL(url).pathname + new URL(url).search).sort(),
  );
  for (const most of Object.values(receiver.mostOpen.byUrl)) {
    expect(most).toBeLessThanOrEqual(bounds.maxConcurrentWebhookAttemptsPerEndpoint);
  }
  const log = await deliveriesOf(running, "limit=500");
  expect(log).toHaveLength(deliveries);
  for (const delivery of log) {
    expect(delivery.state).toBe("dead");
    expect(delivery.attempts.map((attempt: { error: string }) => attempt.error)).toEqual([
      "timeout: no answer within 300 ms",
      "timeout: no answer within 300 ms",
    ]);
  }
  expect(running.loggedErrors).toEqual([]);
}

describe("outbound webhook attempts on the in-memory store", () => {
  it("never exceed the configured bounds, in all and per endpoint, whatever waits", () =>
    expectBoundedAttempts(async () => undefined));
});

describeWithPostgres("outbound webhook attempts on PostgreSQL, where the worker also polls", () => {
  it("never exceed the configured bounds, in all and per endpoint, whatever waits", () =>
    expectBoundedAttempts(async () =>
      createPostgresStore({ connectionString: await (await sharedPostgres()).createMigratedDatabase() }),
    ));
});
