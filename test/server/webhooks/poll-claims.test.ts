import { afterEach, describe, expect, it } from "vitest";
import { systemClock } from "../../../src/server/clock.ts";
import { createMemoryStore } from "../../../src/server/index.ts";
import type { WebhookEndpointRecord } from "../../../src/server/store/records.ts";
import type { Store } from "../../../src/server/store/store.ts";
import { WebhookDispatcher } from "../../../src/server/webhook-delivery/dispatcher.ts";
import { createDeliveryRecord } from "../../../src/server/webhook-delivery/fan-out.ts";
import type { WebhookScheduler } from "../../../src/server/webhook-delivery/scheduler.ts";
import { createTargetAllowList } from "../../../src/server/webhook-delivery/target-allow-list.ts";
import { type Receiver, startReceiver } from "./receiver.ts";

/** Holds every planned attempt until `runHeld` runs them. */
function heldScheduler() {
  const held: (() => void)[] = [];
  const scheduler: WebhookScheduler = {
    schedule(_delayMs, task) {
      held.push(task);
      return () => held.splice(held.indexOf(task), 1);
    },
  };
  const runHeld = () => {
    for (const task of held.splice(0)) task();
  };
  return { scheduler, runHeld, held };
}

describe("a worker's poll and its own planned attempt claiming one delivery at once", () => {
  let receiver: Receiver | undefined;
  afterEach(() => receiver?.close());

  it("sends the delivery at once, whichever claim commits first, instead of after the lease", async () => {
    receiver = await startReceiver();
    const inner = createMemoryStore();
    const now = new Date();
    const endpoint: WebhookEndpointRecord = {
      id: "we_poll",
      accountId: "acct_poll",
      url: receiver.url,
      secret: "whsec_poll",
      events: ["payment.confirmed"],
      source: "api",
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    const delivery = createDeliveryRecord({
      endpoint,
      eventId: "evt_poll",
      event: "payment.confirmed",
      requestId: null,
      payload: { event: "payment.confirmed" },
      test: false,
      now,
    });
    await inner.putWebhookEndpoint(endpoint);
    await inner.putWebhookDelivery(delivery);

    const { scheduler, runHeld, held } = heldScheduler();
    // The first poll's claim commits; the planned attempt starts right after, before the poll has
    // looked at what it claimed, and claims the delivery by its id.
    let raced: () => void = () => {};
    const race = new Promise<void>((resolve) => {
      raced = resolve;
    });
    let polls = 0;
    const store: Store = {
      ...inner,
      claimWebhookDeliveries: async (claim) => {
        if (claim.id !== undefined || polls++ > 0) return inner.claimWebhookDeliveries(claim);
        const claimed = inner.claimWebhookDeliveries(claim);
        runHeld();
        const result = await claimed;
        raced();
        return result;
      },
    };
    const timeoutMs = 5_000;
    const dispatcher = new WebhookDispatcher({
      store,
      baseClock: systemClock,
      retryDelaysMs: [],
      timeoutMs,
      allowList: createTargetAllowList(["127.0.0.1"]),
      scheduler,
      logger: { error: (message, error) => expect.fail(`${message}: ${String(error)}`) },
      pollIntervalMs: 5,
      eventRetention: 1_000,
      deliveryRetention: 100,
    });
    dispatcher.start();
    try {
      // The worker plans the pending delivery as it starts; the plan waits for the first poll.
      await expect.poll(() => held.length).toBe(1);
      await race;
      await dispatcher.settled();
      const sent = await inner.getWebhookDelivery(delivery.id);
      expect(sent?.state).toBe("delivered");
      expect(sent?.lease).toBeNull();
      expect(sent?.attempts.map((attempt) => [attempt.trigger, attempt.statusCode])).toEqual([
        ["initial", 200],
      ]);
      // Sent within the attempt's timeout, not after the lease of twice that.
      const took = Date.parse(sent?.updatedAt ?? "") - now.getTime();
      expect(took).toBeLessThan(timeoutMs);
      expect(receiver.received).toHaveLength(1);
    } finally {
      await dispatcher.stop();
    }
  });
});
