import { invalidState } from "../../problems.ts";
import type { Page, PageRequest, WebhookDeliveryFilter, WebhookDeliveryRecord } from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadOwnWebhookDelivery } from "../shared/own-records.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { nextCursor, readPageQuery } from "./pages.ts";

/** A delivery as the sandbox API shows it: the payload parsed back from the exact text sent. */
export function toWireDelivery(record: WebhookDeliveryRecord): Schemas["SandboxWebhookDelivery"] {
  return {
    id: record.id,
    endpointId: record.endpointId,
    url: record.url,
    eventId: record.eventId,
    event: record.event,
    requestId: record.requestId,
    test: record.test,
    state: record.state,
    deadReason: record.deadReason,
    nextAttemptAt: record.nextAttemptAt,
    payload: JSON.parse(record.body) as Schemas["SandboxWebhookDelivery"]["payload"],
    attempts: record.attempts.map((attempt) => ({ ...attempt })),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

/**
 * One page of the deliveries matching every field of `filter`, read through the lookup that
 * narrows it most: an event's, a request's or an endpoint's deliveries, the pending ones, or the
 * account's.
 */
function findDeliveries(
  store: StoreOperations,
  filter: WebhookDeliveryFilter & { accountId: string },
  page: PageRequest,
): Promise<Page<WebhookDeliveryRecord>> {
  const deliveries = store.webhookDeliveries;
  if (filter.eventId !== undefined) return deliveries.find("event", filter.eventId, page, filter);
  if (filter.requestId !== undefined) return deliveries.find("request", filter.requestId, page, filter);
  if (filter.endpointId !== undefined) return deliveries.find("endpoint", filter.endpointId, page, filter);
  if (filter.state === "pending") return deliveries.find("pending", {}, page, filter);
  return deliveries.find("account", filter.accountId, page, filter);
}

/** One page of the delivery log of the caller's account, oldest first, narrowed by any of the query's fields. */
export async function listSandboxWebhookDeliveries(
  ctx: DomainContext,
  { principal, query }: OperationInput<"listSandboxWebhookDeliveries">,
): Promise<Schemas["SandboxWebhookDeliveryList"]> {
  const filter: WebhookDeliveryFilter & { accountId: string } = { accountId: principal.accountId };
  if (query.endpointId !== undefined) filter.endpointId = query.endpointId;
  if (query.eventId !== undefined) filter.eventId = query.eventId;
  if (query.requestId !== undefined) filter.requestId = query.requestId;
  if (query.state !== undefined) filter.state = query.state;
  const page = await findDeliveries(ctx.store, filter, readPageQuery(query));
  return { deliveries: page.items.map(toWireDelivery), nextCursor: nextCursor(page) };
}

export async function getSandboxWebhookDelivery(
  ctx: DomainContext,
  { principal, path: { deliveryId: id } }: OperationInput<"getSandboxWebhookDelivery">,
): Promise<Schemas["SandboxWebhookDelivery"]> {
  return toWireDelivery(await loadOwnWebhookDelivery(ctx.store, principal, id));
}

/**
 * Sends a delivered or dead delivery again: the same delivery id and body, a new round of
 * attempts (retry count from 0, retries on the usual schedule), recorded after the earlier ones.
 */
export async function redeliverSandboxWebhook(
  ctx: DomainContext,
  { principal, path: { deliveryId: id } }: OperationInput<"redeliverSandboxWebhook">,
): Promise<Schemas["SandboxWebhookDelivery"]> {
  const updated = await ctx.store.withTransaction(async (tx) => {
    const record = await loadOwnWebhookDelivery(tx, principal, id);
    if (record.state === "pending") {
      throw invalidState(
        `Webhook delivery ${id} is still pending; it is attempted again at ${record.nextAttemptAt}. Redeliver it once it is delivered or dead.`,
      );
    }
    if (!(await tx.webhookEndpoints.get(record.endpointId))) {
      throw invalidState(`Webhook delivery ${id} went to endpoint ${record.endpointId}, which was deleted.`);
    }
    const now = ctx.clock.now().toISOString();
    const next: WebhookDeliveryRecord = {
      ...record,
      state: "pending",
      deadReason: null,
      round: record.round + 1,
      nextRetryCount: 0,
      nextAttemptAt: now,
      dueAt: null,
      lease: null,
      updatedAt: now,
    };
    await tx.webhookDeliveries.put(next);
    return next;
  });
  ctx.webhooks.enqueue(updated.id);
  return toWireDelivery(updated);
}
