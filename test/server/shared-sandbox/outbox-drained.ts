import type { Store } from "../../../src/server/index.ts";

/**
 * Waits until every event is fanned out and no delivery is pending: each one delivered or dead,
 * whichever instance sent it (a wait, not a timing assertion: it gives up after a minute).
 */
export async function allDeliveriesFinished(store: Store): Promise<void> {
  for (let round = 0; round < 600; round++) {
    const unread = await store.listEvents(await store.getOutboxCursor("webhooks"), 1);
    const pending = await store.webhookDeliveries.find("pending", {}, { limit: 1 });
    if (unread.length === 0 && pending.items.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("deliveries still pending after a minute");
}
