import { newUlid } from "../../ids.ts";
import { ProblemError } from "../../problems.ts";
import type { WebhookEndpointRecord } from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import { createDeliveryRecord } from "../../webhook-delivery/fan-out.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { callingOrchestrator, requireOrchestratorRecord } from "../shared/own-records.ts";
import type { Principal } from "../shared/principal.ts";
import { checkWebhookUrl, newWebhookSecret } from "../shared/webhook-targets.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { toWireWebhook } from "./orchestrator-wire.ts";

// An orchestrator's webhooks are rows of the webhook endpoint table with the `orchestrator` scope:
// the outbox worker delivers, signs and retries them as it does the account's endpoints, and the
// account's events never reach them (they are outside the table's `account` lookup).

function webhooksOf(tx: StoreOperations, principal: Principal) {
  return tx.webhookEndpoints.find("orchestrator", callingOrchestrator(principal).id);
}

function loadWebhook(tx: StoreOperations, principal: Principal, id: string) {
  return requireOrchestratorRecord(
    tx.webhookEndpoints.get(id),
    principal,
    `No webhook of this orchestrator has the id ${id}.`,
  );
}

export async function createOrchestratorWebhook(
  ctx: DomainContext,
  { principal, body }: OperationInput<"createOrchestratorWebhook">,
): Promise<Schemas["OrchestratorWebhookCreated"]> {
  const orchestrator = callingOrchestrator(principal);
  await checkWebhookUrl(ctx, body.url);
  return ctx.store.withTransaction(async (tx) => {
    const existing = (await webhooksOf(tx, principal)).items;
    if (existing.some((webhook) => webhook.url === body.url)) {
      throw new ProblemError("alreadyExists", "This orchestrator already has a webhook with this URL.");
    }
    const now = ctx.clock.now().toISOString();
    const record: WebhookEndpointRecord = {
      id: `we_${newUlid(ctx.clock.now())}`,
      accountId: orchestrator.accountId,
      scope: "orchestrator",
      orchestratorId: orchestrator.id,
      active: true,
      url: body.url,
      secret: newWebhookSecret(),
      events: [],
      source: "api",
      createdAt: now,
      updatedAt: now,
    };
    await tx.webhookEndpoints.put(record);
    return { webhook: toWireWebhook(record), secret: record.secret };
  });
}

export async function listOrchestratorWebhooks(
  ctx: DomainContext,
  { principal }: OperationInput<"listOrchestratorWebhooks">,
): Promise<Schemas["OrchestratorWebhookList"]> {
  return { webhooks: (await webhooksOf(ctx.store, principal)).items.map(toWireWebhook) };
}

export async function activateOrchestratorWebhook(
  ctx: DomainContext,
  { principal, path: { id } }: OperationInput<"activateOrchestratorWebhook">,
): Promise<Schemas["OrchestratorWebhookAnswer"]> {
  return ctx.store.withTransaction(async (tx) => {
    const record = await loadWebhook(tx, principal, id);
    if (record.active !== false) return { webhook: toWireWebhook(record) };
    const active = { ...record, active: true, updatedAt: ctx.clock.now().toISOString() };
    await tx.webhookEndpoints.put(active);
    return { webhook: toWireWebhook(active) };
  });
}

/** Deactivates a webhook; the deliveries it has not had yet end as dead. */
export async function deactivateOrchestratorWebhook(
  ctx: DomainContext,
  { principal, path: { id } }: OperationInput<"deactivateOrchestratorWebhook">,
): Promise<Schemas["OrchestratorWebhookAnswer"]> {
  return ctx.store.withTransaction(async (tx) => {
    const record = await loadWebhook(tx, principal, id);
    if (record.active === false) return { webhook: toWireWebhook(record) };
    const now = ctx.clock.now().toISOString();
    const inactive = { ...record, active: false, updatedAt: now };
    await tx.webhookEndpoints.put(inactive);
    const pending = await tx.webhookDeliveries.find("endpoint", id, undefined, { state: "pending" });
    for (const delivery of pending.items) {
      await tx.webhookDeliveries.put({
        ...delivery,
        state: "dead",
        deadReason: "endpoint_deleted",
        nextAttemptAt: null,
        updatedAt: now,
      });
    }
    return { webhook: toWireWebhook(inactive) };
  });
}

/** A sample `client_id.linked` payload: placeholder identifiers, the orchestrator's own id. */
function sampleLinkedPayload(orchestratorId: string, now: Date) {
  return {
    event: "client_id.linked",
    clientId: "cli_00000000000000000000000000000000",
    orchestratorId,
    linkId: "01KM9T3B2C4X8R6T3N5B1D0HQE",
    intentId: "01KM9T5D4E6X8R6T3N5B1D0HQF",
    externalId: "merchant_test",
    destinationId:
      "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7@eip155:8453#00000000:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
    destinationWalletAddress: "0x6923831acf5c327260d7ac7c9dff5b1c3cb3c7d7",
    chain: "base",
    currency: "USDC",
    timestamp: now.toISOString(),
  };
}

/** Queues one signed test delivery per active webhook, through the webhook worker. */
export async function sendOrchestratorWebhookTest(
  ctx: DomainContext,
  { principal, body }: OperationInput<"sendOrchestratorWebhookTest">,
): Promise<Schemas["OrchestratorWebhookTestResult"]> {
  const orchestrator = callingOrchestrator(principal);
  const now = ctx.clock.now();
  const deliveries = await ctx.store.withTransaction(async (tx) => {
    const active = (await webhooksOf(tx, principal)).items.filter((webhook) => webhook.active !== false);
    const eventId = newUlid(now);
    const created = [];
    for (const endpoint of active) {
      const delivery = createDeliveryRecord({
        endpoint,
        eventId,
        event: body.eventType,
        requestId: null,
        payload: sampleLinkedPayload(orchestrator.id, now),
        test: true,
        now,
      });
      await tx.webhookDeliveries.put(delivery);
      created.push(delivery.id);
    }
    return created;
  });
  for (const id of deliveries) ctx.webhooks.enqueue(id);
  return { sent: deliveries.length, failed: 0 };
}
