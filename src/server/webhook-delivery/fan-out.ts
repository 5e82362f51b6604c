import { isWebhookEventName } from "../../wire/webhook-event.ts";
import { loadAccountClock } from "../account-clock.ts";
import type { Clock } from "../clock.ts";
import { newUlid } from "../ids.ts";
import type {
  DeliveryEventName,
  DomainEvent,
  WebhookDeliveryRecord,
  WebhookEndpointRecord,
  WebhookEventData,
  WebhookEventName,
} from "../store/records.ts";
import type { Store, StoreOperations } from "../store/store.ts";

/** The outbox consumer name the webhook worker keeps its cursor under. */
export const webhookOutboxConsumer = "webhooks";

const isWebhookEvent = (event: DomainEvent): event is DomainEvent & { type: WebhookEventName } =>
  isWebhookEventName(event.type);

/** The events an orchestrator's webhooks receive: those about its own links. */
const orchestratorEvents: readonly WebhookEventName[] = ["client_id.linked", "kyt.screening.completed"];

/**
 * Whether an endpoint receives an event: it is on, and either an orchestrator's webhook and the
 * event one of that orchestrator's, or subscribed to the event and either platform-wide or scoped
 * to the client ID the payload names.
 */
export function endpointReceives(
  endpoint: WebhookEndpointRecord,
  event: WebhookEventName,
  payload: Record<string, unknown>,
): boolean {
  if (endpoint.active === false) return false;
  if (endpoint.scope === "orchestrator") {
    return orchestratorEvents.includes(event) && payload.orchestratorId === endpoint.orchestratorId;
  }
  // Scoped duplicates (`payment.confirmed.checkout`) are events of their own here: an endpoint
  // listing `payment.confirmed` alone gets the core event only.
  if (!endpoint.events.includes(event)) return false;
  return (endpoint.clientId ?? null) === null || payload.clientId === endpoint.clientId;
}

/** The webhooks of the orchestrator an orchestrator event names, in the event's account. */
async function orchestratorEndpointsOf(
  tx: Pick<StoreOperations, "webhookEndpoints">,
  event: WebhookEventName,
  data: WebhookEventData,
): Promise<WebhookEndpointRecord[]> {
  const orchestratorId = data.payload.orchestratorId;
  if (!orchestratorEvents.includes(event) || typeof orchestratorId !== "string") return [];
  const found = (await tx.webhookEndpoints.find("orchestrator", orchestratorId)).items;
  return found.filter((endpoint) => endpoint.accountId === data.accountId);
}

/** A new pending delivery of one event to one endpoint; its id is the `x-request-network-delivery`. */
export function createDeliveryRecord(input: {
  endpoint: WebhookEndpointRecord;
  eventId: string;
  event: DeliveryEventName;
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
    dueAt: null,
    lease: null,
    createdAt: at,
    updatedAt: at,
  };
}

export interface FanOutOptions {
  /** What the accounts' sandbox clocks run on: a delivery is created at its account's time. */
  baseClock: Clock;
  /** The most events one run reads; the caller runs again while a run reads that many. */
  batchSize: number;
  /** How many of the newest events the outbox keeps once they are fanned out. */
  eventRetention: number;
}

/**
 * Turns up to `batchSize` of the outbox's events past the worker's cursor into deliveries, one
 * per webhook event and subscribed endpoint, in the transaction that moves the cursor: each event
 * fans out once, whichever worker runs. Then trims the outbox to its retention. Returns the ids
 * of the new deliveries with their endpoints, and whether the batch was full (more may wait).
 */
export async function fanOutWebhookEvents(
  store: Store,
  options: FanOutOptions,
): Promise<{ created: { id: string; endpointId: string }[]; full: boolean }> {
  const { handled, result } = await store.consumeEvents(
    webhookOutboxConsumer,
    options.batchSize,
    async (events, tx) => {
      const created: { id: string; endpointId: string }[] = [];
      // An account's clock and endpoints are read once per batch: a payment's event and its
      // scoped duplicates come together, and nothing in this transaction changes either.
      const clocks = new Map<string, Date>();
      const nowOf = async (accountId: string) => {
        const known = clocks.get(accountId);
        if (known) return known;
        const now = (await loadAccountClock(tx, options.baseClock, accountId)).now();
        clocks.set(accountId, now);
        return now;
      };
      const accountEndpoints = new Map<string, WebhookEndpointRecord[]>();
      const endpointsOf = async (accountId: string) => {
        const known = accountEndpoints.get(accountId);
        if (known) return known;
        const found = (await tx.webhookEndpoints.find("account", accountId)).items;
        accountEndpoints.set(accountId, found);
        return found;
      };
      for (const event of events) {
        if (!isWebhookEvent(event)) continue;
        const data = event.data as unknown as WebhookEventData;
        const endpoints = [
          ...(await endpointsOf(data.accountId)),
          ...(await orchestratorEndpointsOf(tx, event.type, data)),
        ];
        const now = await nowOf(data.accountId);
        for (const endpoint of endpoints.filter((candidate) =>
          endpointReceives(candidate, event.type, data.payload),
        )) {
          const delivery = createDeliveryRecord({
            endpoint,
            eventId: data.eventId,
            event: event.type,
            requestId: data.requestId,
            payload: data.payload,
            test: false,
            now,
          });
          await tx.webhookDeliveries.put(delivery);
          created.push({ id: delivery.id, endpointId: endpoint.id });
        }
      }
      return created;
    },
  );
  if (handled > 0) await store.trimEvents(options.eventRetention);
  return { created: result ?? [], full: handled === options.batchSize };
}
