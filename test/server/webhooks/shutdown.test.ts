import { afterEach, describe, expect, it } from "vitest";
import { createMemoryStore, timerScheduler, type WebhookScheduler } from "../../../src/server/index.ts";
import type { TestServer } from "../helpers.ts";
import { registerEndpoint, startWebhookServer } from "./harness.ts";
import { type Receiver, startReceiver } from "./receiver.ts";

const servers: TestServer[] = [];
let hook: Receiver | undefined;
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  await hook?.close();
  hook = undefined;
});

/** Real timers, counted: how many tasks are scheduled and have neither run nor been cancelled. */
function countingScheduler(): {
  scheduler: WebhookScheduler;
  live(): number;
  scheduled(count: number): Promise<void>;
} {
  let live = 0;
  let total = 0;
  const waiters: { count: number; resolve: () => void }[] = [];
  return {
    scheduled: (count) =>
      total >= count ? Promise.resolve() : new Promise((resolve) => waiters.push({ count, resolve })),
    scheduler: {
      schedule(delayMs, task) {
        live++;
        total++;
        for (const waiter of waiters.filter((w) => total >= w.count)) waiter.resolve();
        let done = false;
        const finish = () => {
          if (!done) live--;
          done = true;
        };
        const cancel = timerScheduler.schedule(delayMs, () => {
          finish();
          task();
        });
        return () => {
          finish();
          cancel();
        };
      },
    },
    live: () => live,
  };
}

const timeouts = () => process.getActiveResourcesInfo().filter((kind) => kind === "Timeout").length;

describe("closing the server", () => {
  it("aborts an attempt in flight, leaves no timer, and the next server on the store sends it again", async () => {
    hook = await startReceiver({ hang: true });
    const store = createMemoryStore();
    const counted = countingScheduler();
    const timersBefore = timeouts();
    // Only closing can end this attempt: its timeout is a minute away.
    const first = await startWebhookServer({
      store,
      webhookScheduler: counted.scheduler,
      settings: { webhookTimeoutMs: 60_000 },
    });
    const { id } = await registerEndpoint(first, hook.url);
    const test = await first.call("POST", `/sandbox/webhooks/endpoints/${id}/test`);
    await hook.arrived(1);

    await first.close();
    expect(counted.live()).toBe(0);
    expect(timeouts()).toBeLessThanOrEqual(timersBefore);
    // An aborted attempt says nothing about the receiver: nothing is recorded, the delivery waits.
    expect(await store.webhookDeliveries.get(test.body.id)).toMatchObject({
      state: "pending",
      nextRetryCount: 0,
      attempts: [],
    });

    hook.reply({ status: 200 });
    const second = await startWebhookServer({ store });
    servers.push(second);
    await second.server.webhooks.settled();
    expect(hook.received).toHaveLength(2);
    expect(hook.received[1]?.headers["x-request-network-delivery"]).toBe(test.body.id);
    expect(hook.received[1]?.headers["x-request-network-retry-count"]).toBe("0");
    expect((await store.webhookDeliveries.get(test.body.id))?.state).toBe("delivered");
  });

  it("cancels a waiting retry", async () => {
    hook = await startReceiver({ status: 500 });
    const counted = countingScheduler();
    const server = await startWebhookServer({
      webhookScheduler: counted.scheduler,
      settings: { webhookRetryDelaysMs: [60_000] },
    });
    const { id } = await registerEndpoint(server, hook.url);
    const test = await server.call("POST", `/sandbox/webhooks/endpoints/${id}/test`);
    await hook.arrived(1);
    // The failed attempt is recorded and its retry scheduled a minute later: the second task.
    await counted.scheduled(2);
    expect(counted.live()).toBe(1);
    const pending = (await server.call("GET", `/sandbox/webhooks/deliveries/${test.body.id}`)).body;
    expect(pending).toMatchObject({ state: "pending", nextAttemptAt: "2026-04-12T10:01:00.000Z" });

    await server.close();
    expect(counted.live()).toBe(0);
    expect(hook.received).toHaveLength(1);
  });
});
