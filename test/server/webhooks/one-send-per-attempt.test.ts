import { afterEach, describe, expect, it } from "vitest";
import { createMemoryStore } from "../../../src/server/index.ts";
import { createSlowStore } from "../../support/slow-store.ts";
import type { TestServer } from "../helpers.ts";
import { createRequest, startWebhookServer } from "./harness.ts";
import { type Receiver, startReceiver } from "./receiver.ts";
import { expectOneSendPerAttempt, slowSends } from "./slow-sends.ts";

let server: TestServer | undefined;
let hook: Receiver | undefined;
afterEach(async () => {
  await server?.close();
  await hook?.close();
  server = hook = undefined;
});

describe("one instance on the in-memory store", () => {
  it("sends each attempt of each delivery once, though its store answers later than its leases would last", async () => {
    hook = await startReceiver({ status: 200, body: "ok", afterMs: slowSends.answerAfterMs });
    const store = createMemoryStore();
    let late = false;
    server = await startWebhookServer({
      store: createSlowStore(store, slowSends.storeDelayMs, () => late),
      endpoints: [{ url: hook.url }],
      // Room for every delivery at once: each attempt holds its lease as long as the store is late.
      settings: { ...slowSends.config, maxConcurrentWebhookAttemptsPerEndpoint: slowSends.events },
    });
    const running = server;
    await running.server.webhooks.stop();
    const requestIds = await Promise.all(
      Array.from({ length: slowSends.events }, () => createRequest(running)),
    );
    for (const requestId of requestIds) {
      const paid = await running.call("POST", `/sandbox/requests/${requestId}/payments`, {
        body: { outcome: "paid" },
      });
      expect(paid.status).toBe(201);
    }
    late = true;
    running.server.webhooks.start();
    await running.server.webhooks.settled();

    await expectOneSendPerAttempt(hook, store, slowSends.events);
    expect(running.loggedErrors).toEqual([]);
  });
});
