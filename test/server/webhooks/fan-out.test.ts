import { describe, expect, it } from "vitest";
import { systemClock } from "../../../src/server/clock.ts";
import { createMemoryStore } from "../../../src/server/index.ts";
import type { Store } from "../../../src/server/store/store.ts";
import { WebhookDispatcher } from "../../../src/server/webhook-delivery/dispatcher.ts";
import { webhookOutboxConsumer } from "../../../src/server/webhook-delivery/fan-out.ts";
import { timerScheduler } from "../../../src/server/webhook-delivery/scheduler.ts";
import { createTargetAllowList } from "../../../src/server/webhook-delivery/target-allow-list.ts";

describe("the webhook worker's fan-out", () => {
  it("reads a burst of commits in one fan-out, every event once, instead of one fan-out per commit", async () => {
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
      allowList: createTargetAllowList(),
      scheduler: timerScheduler,
      logger: { error: (message, error) => expect.fail(`${message}: ${String(error)}`) },
      eventRetention: 1_000,
      deliveryRetention: 100,
    });
    dispatcher.start();
    await dispatcher.settled();
    consumed.length = 0;
    await Promise.all(
      Array.from({ length: 40 }, (_, n) =>
        store.appendEvent({ type: "request.created", occurredAt: "t", data: { n } }),
      ),
    );
    await dispatcher.settled();
    await dispatcher.stop();
    expect(consumed.reduce((sum, handled) => sum + handled, 0)).toBe(40);
    expect(consumed.length).toBeLessThanOrEqual(3);
    expect(await inner.getOutboxCursor(webhookOutboxConsumer)).toBe(40);
  });
});
