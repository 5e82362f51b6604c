import { afterEach, describe, expect, it } from "vitest";
import { systemClock } from "../../../src/server/clock.ts";
import { createMemoryStore } from "../../../src/server/index.ts";
import type { Store } from "../../../src/server/store/store.ts";
import { WebhookDispatcher } from "../../../src/server/webhook-delivery/dispatcher.ts";
import { createTargetAllowList } from "../../../src/server/webhook-delivery/target-allow-list.ts";
import { delivery, endpoint } from "../store/fixtures.ts";
import { heldScheduler } from "./held-scheduler.ts";
import { type Receiver, startReceiver } from "./receiver.ts";

// A worker on a shared store polls for due deliveries besides planning its own attempts. Here the
// first poll and the attempt the worker planned for one pending delivery meet, in either order.

const timeoutMs = 5_000;

let receiver: Receiver | undefined;
afterEach(() => receiver?.close());

/** A memory store holding one endpoint at the receiver and one pending delivery to it, due now. */
async function storeWithPendingDelivery(url: string) {
  const store = createMemoryStore();
  const hook = { ...endpoint("we_poll"), url };
  const pending = delivery("dlv_poll", { endpointId: hook.id, url });
  await store.webhookEndpoints.put(hook);
  await store.webhookDeliveries.put(pending);
  return { store, pending };
}

/**
 * A started worker polling every 5 ms on `inner`, whose planned attempts wait for the test
 * (`held`). Its first poll runs `duringFirstPoll` once its claim has started committing.
 * `claimsById` counts the planned attempts' claims.
 */
function startPollingWorker(inner: Store, duringFirstPoll: (runPlanned: () => void) => void = () => {}) {
  const held = heldScheduler();
  let firstPollDone: () => void = () => {};
  const firstPoll = new Promise<void>((resolve) => {
    firstPollDone = resolve;
  });
  let polls = 0;
  const counts = { claimsById: 0 };
  const store: Store = {
    ...inner,
    claimWebhookDeliveries: async (claim) => {
      if (claim.id !== undefined) counts.claimsById++;
      if (claim.id !== undefined || polls++ > 0) return inner.claimWebhookDeliveries(claim);
      const claimed = inner.claimWebhookDeliveries(claim);
      duringFirstPoll(held.runAll);
      const result = await claimed;
      firstPollDone();
      return result;
    },
  };
  const dispatcher = new WebhookDispatcher({
    store,
    baseClock: systemClock,
    retryDelaysMs: [],
    timeoutMs,
    limits: { total: 32, perEndpoint: 8 },
    allowList: createTargetAllowList(["127.0.0.1"]),
    scheduler: held.scheduler,
    logger: { error: (message, error) => expect.fail(`${message}: ${String(error)}`) },
    pollIntervalMs: 5,
    eventRetention: 1_000,
    deliveryRetention: 100,
  });
  dispatcher.start();
  return { dispatcher, held, firstPoll, counts };
}

describe("a worker's poll and its own planned attempt of one delivery", () => {
  it("sends it at once when the poll's claim commits first, instead of after the lease", async () => {
    receiver = await startReceiver();
    const now = new Date();
    const { store, pending } = await storeWithPendingDelivery(receiver.url);
    // The planned attempt starts while the poll's claim is committing, and claims the delivery by
    // its id before the poll has looked at what it claimed.
    const { dispatcher, held, firstPoll } = startPollingWorker(store, (runPlanned) => runPlanned());
    try {
      // The worker plans the pending delivery as it starts; the plan waits for the first poll.
      await expect.poll(() => held.held()).toBe(1);
      await firstPoll;
      await dispatcher.settled();
      const sent = await store.webhookDeliveries.get(pending.id);
      expect(sent?.state).toBe("delivered");
      expect(sent?.lease).toBeNull();
      expect(sent?.attempts.map((attempt) => [attempt.trigger, attempt.statusCode])).toEqual([
        ["initial", 200],
      ]);
      // Sent within the attempt's timeout, not after the lease of twice that.
      expect(Date.parse(sent?.updatedAt ?? "") - now.getTime()).toBeLessThan(timeoutMs);
      expect(receiver.received).toHaveLength(1);
    } finally {
      await dispatcher.stop();
    }
  });

  it("leaves it to the poll's attempt when that started first, and stop() waits for that attempt", async () => {
    receiver = await startReceiver({ hang: true });
    const { store, pending } = await storeWithPendingDelivery(receiver.url);
    const { dispatcher, held, firstPoll, counts } = startPollingWorker(store);
    await firstPoll;
    // The poll's attempt is under way, held by the receiver; the planned attempt comes due now.
    await receiver.arrived(1);
    expect(held.held()).toBe(1);
    held.runAll();
    expect(counts.claimsById).toBe(0);
    // Stopping aborts the poll's attempt, which records nothing and gives the lease back before stop() resolves.
    await dispatcher.stop();
    const left = await store.webhookDeliveries.get(pending.id);
    expect(left?.state).toBe("pending");
    expect(left?.attempts).toEqual([]);
    expect(left?.lease).toBeNull();
    expect(receiver.received).toHaveLength(1);
  });
});
