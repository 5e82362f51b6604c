import { isWebhookEventName } from "../../client/webhook-event.ts";
import { newUlid } from "../domain/ids.ts";
import type {
  DomainEvent,
  WebhookDeliveryRecord,
  WebhookEndpointRecord,
  WebhookEventData,
  WebhookEventName,
} from "../store/records.ts";
import type { Store } from "../store/store.ts";

/** The outbox consumer name the webhook worker keeps its cursor under. */
export const webhookOutboxConsumer = "webhooks";

const isWebhookEvent = (event: DomainEvent): event is DomainEvent & { type: WebhookEventName } =>
  isWebhookEventName(event.type);

/** A new pending delivery of one event to one endpoint; its id is the `x-request-network-delivery`. */
export function createDeliveryRecord(input: {
  endpoint: WebhookEndpointRecord;
  eventId: string;
  event: WebhookEventName;
  requestId: string | null;
  payload: Record<string, unknown>;
  test: boolean;
  now: Date;
}): WebhookDeliveryRecord {
  const at = input.now.toISOString();
  return {
    id: newUlid(input.now),
    accountId: input.endpoint.accountId,
    endpointId: input.endpoint.id,
    url: input.endpoint.url,
    eventId: input.eventId,
    event: input.event,
    requestId: input.requestId,
    test: input.test,
    body: JSON.stringify(input.payload),
    state: "pending",
    round: 1,
    nextRetryCount: 0,
    nextAttemptAt: at,
    deadReason: null,
    attempts: [],
    createdAt: at,
    updatedAt: at,
  };
}

/**
 * Turns the outbox's webhook events past the worker's cursor into deliveries, one per event and
 * subscribed endpoint, and moves the cursor in the same transaction: each event fans out once.
 * Returns the ids of the new deliveries.
 */
export async function fanOutWebhookEvents(store: Store, now: Date): Promise<string[]> {
  return store.withTransaction(async (tx) => {
    const cursor = await tx.getOutboxCursor(webhookOutboxConsumer);
    const events = await tx.listEvents(cursor);
    const created: string[] = [];
    for (const event of events) {
      if (!isWebhookEvent(event)) continue;
      const data = event.data as unknown as WebhookEventData;
      const endpoints = await tx.listWebhookEndpoints(data.accountId);
      for (const endpoint of endpoints.filter((candidate) => candidate.events.includes(event.type))) {
        const delivery = createDeliveryRecord({
          endpoint,
          eventId: data.eventId,
          event: event.type,
          requestId: data.requestId,
          payload: data.payload,
          test: false,
          now,
        });
        await tx.putWebhookDelivery(delivery);
        created.push(delivery.id);
      }
    }
    const last = events.at(-1);
    if (last) await tx.setOutboxCursor(webhookOutboxConsumer, last.sequence);
    return created;
  });
}
