import { expect } from "vitest";
import type { Store } from "../../../src/server/index.ts";
import type { Receiver } from "./receiver.ts";

/**
 * A receiver that answers well within the timeout, and a store that answers each call late: from
 * its claim to its recorded result, an attempt then takes longer than a lease of twice the
 * timeout and a second (2 s here), as attempts did under load.
 */
export const slowSends = {
  config: { webhookTimeoutMs: 500, webhookRetryDelaysMs: [50, 50, 50] },
  answerAfterMs: 250,
  storeDelayMs: 450,
  events: 20,
};

/**
 * Each attempt of each delivery reached the receiver once: no two sends of a delivery with one
 * retry count. Every delivery is delivered, with the attempts the receiver saw recorded (a
 * second one only where the first answer came after the timeout).
 */
export async function expectOneSendPerAttempt(
  receiver: Receiver,
  store: Store,
  deliveries: number,
): Promise<void> {
  const sends = new Map<string, string[]>();
  for (const webhook of receiver.received) {
    const id = String(webhook.headers["x-request-network-delivery"]);
    sends.set(id, [...(sends.get(id) ?? []), String(webhook.headers["x-request-network-retry-count"])]);
  }
  const repeated = [...sends].filter(([, retryCounts]) => new Set(retryCounts).size < retryCounts.length);
  expect(repeated).toEqual([]);
  expect(sends.size).toBe(deliveries);
  const log = (await store.webhookDeliveries.find("all", {})).items;
  expect(log.map((delivery) => [delivery.id, delivery.state, delivery.lease])).toEqual(
    log.map((delivery) => [delivery.id, "delivered", null]),
  );
  expect(
    Object.fromEntries(log.map((delivery) => [delivery.id, delivery.attempts.map((a) => `${a.retryCount}`)])),
  ).toEqual(Object.fromEntries(sends));
}
