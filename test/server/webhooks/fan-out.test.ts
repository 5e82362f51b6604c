import { describe, expect, it } from "vitest";
import { systemClock } from "../../../src/server/clock.ts";
import { createMemoryStore } from "../../../src/server/index.ts";
import type { Store } from "../../../src/server/store/store.ts";
import { WebhookDispatcher } from "../../../src/server/webhook-delivery/dispatcher.ts";
import { webhookOutboxConsumer } from "../../../src/server/webhook-delivery/fan-out.ts";
import { timerScheduler } from "../../../src/server/webhook-delivery/scheduler.ts";
import { createTargetAllowList } from "../../../src/server/webhook-delivery/target-allow-list.ts";

/** A memory store whose fan-outs are counted, and a started worker on it. */
async function startCountingWorker() {
  const inner = createMemoryStore();
  const consumed: number[] = [];
  const store: Store = {
    ...inner,
    consumeEvents: async (consumer, limit, handle) => {
      const outcome = await inner.consumeEvents(consumer, limit, handle);
      consumed.push(outcome.handled);
      return outcome;
    },
  };
  const dispatcher = new WebhookDispatcher({
    store,
    baseClock: systemClock,
    retryDelaysMs: [],
    timeoutMs: 1_000,
    limits: { total: 32, perEndpoint: 8 },
    allowList: createTargetAllowList(),
    scheduler: timerScheduler,
    logger: { error: (message, error) => expect.fail(`${message}: ${String(error)}`) },
    eventRetention: 1_000,
    deliveryRetention: 100,
  });
  dispatcher.start();
  await dispatcher.settled();
  consumed.length = 0;
  const cursor = () => inner.getOutboxCursor(webhookOutboxConsumer);
  return { store, dispatcher, consumed, cursor };
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
/** A webhook event of an account without endpoints: fanned out into no delivery. */
const webhookEvent = (n: number) => ({
  type: "payment.confirmed" as const,
  occurredAt: "t",
  data: { eventId: `evt_${n}`, accountId: "acct_none", requestId: null, payload: {} },
});
const otherEvent = (n: number) => ({ type: "request.created" as const, occurredAt: "t", data: { n } });

describe("the webhook worker's fan-out", () => {
  it("reads a burst of commits in one fan-out, every event once, instead of one fan-out per commit", async () => {
    const { store, dispatcher, consumed, cursor } = await startCountingWorker();
    await Promise.all(Array.from({ length: 40 }, (_, n) => store.appendEvent(webhookEvent(n))));
    await dispatcher.settled();
    await dispatcher.stop();
    expect(sum(consumed)).toBe(40);
    expect(consumed.length).toBeLessThanOrEqual(3);
    expect(await cursor()).toBe(40);
  });

  it("passes over events no webhook needs in the next fan-out, or once a batch of them waits", async () => {
    const { store, dispatcher, consumed, cursor } = await startCountingWorker();
    for (let n = 0; n < 40; n++) await store.appendEvent(otherEvent(n));
    await dispatcher.settled();
    expect(consumed).toEqual([]);
    expect(await cursor()).toBe(0);

    // A webhook event's fan-out reads the events before it too.
    await store.appendEvent(webhookEvent(40));
    await dispatcher.settled();
    expect(consumed).toEqual([41]);
    expect(await cursor()).toBe(41);

    // 500 events waiting are read without a webhook event among them.
    for (let n = 0; n < 499; n++) await store.appendEvent(otherEvent(n));
    await dispatcher.settled();
    expect(await cursor()).toBe(41);
    await store.appendEvent(otherEvent(499));
    await dispatcher.settled();
    await dispatcher.stop();
    // A full batch may not be all: the worker looks once more, and finds nothing.
    expect(consumed).toEqual([41, 500, 0]);
    expect(await cursor()).toBe(541);
  });
});
