import { webhookEventNames } from "../../../wire/webhook-event.ts";
import { newUlid } from "../../ids.ts";
import { invalidState } from "../../problems.ts";
import type { DeliveryEventName, WebhookEndpointRecord } from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import { createDeliveryRecord } from "../../webhook-delivery/fan-out.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadOwnWebhookEndpoint } from "../shared/own-records.ts";
import { buildTestPayload } from "../shared/webhook-events.ts";
import { checkWebhookUrl, newWebhookSecret } from "../shared/webhook-targets.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { nextCursor, readPageQuery } from "./pages.ts";
import { toWireDelivery } from "./webhook-deliveries.ts";

/** An endpoint as listed: the secret is reduced to its last four characters. */
export function toWireEndpoint(record: WebhookEndpointRecord): Schemas["SandboxWebhookEndpoint"] {
  return {
    id: record.id,
    url: record.url,
    events: record.events,
    secretLast4: record.secret.slice(-4),
    source: record.source,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
}

/** An endpoint with its whole secret: only in the answers to create and rotate. */
function withSecret(record: WebhookEndpointRecord): Schemas["SandboxWebhookEndpointWithSecret"] {
  return { ...toWireEndpoint(record), secret: record.secret };
}

/** One payment fans out to every endpoint of its account: their number is bounded. */
export async function requireRoomForEndpoint(ctx: DomainContext, tx: StoreOperations, accountId: string) {
  const most = ctx.webhooks.maxEndpointsPerAccount;
  const count = (await tx.webhookEndpoints.find("account", accountId)).items.length;
  if (count >= most) {
    throw invalidState(
      `The account has ${count} webhook endpoints, the most it may have (maxWebhookEndpointsPerAccount is ${most}): delete one first.`,
    );
  }
}

export async function createSandboxWebhookEndpoint(
  ctx: DomainContext,
  { principal, body }: OperationInput<"createSandboxWebhookEndpoint">,
): Promise<Schemas["SandboxWebhookEndpointWithSecret"]> {
  await checkWebhookUrl(ctx, body.url);
  return ctx.store.withTransaction(async (tx) => {
    await requireRoomForEndpoint(ctx, tx, principal.accountId);
    const now = ctx.clock.now().toISOString();
    const record: WebhookEndpointRecord = {
      id: `we_${newUlid(ctx.clock.now())}`,
      accountId: principal.accountId,
      scope: "account",
      url: body.url,
      secret: newWebhookSecret(),
      events: body.events ?? [...webhookEventNames],
      source: "api",
      createdAt: now,
      updatedAt: now,
    };
    await tx.webhookEndpoints.put(record);
    return withSecret(record);
  });
}

export async function listSandboxWebhookEndpoints(
  ctx: DomainContext,
  { principal, query }: OperationInput<"listSandboxWebhookEndpoints">,
): Promise<Schemas["SandboxWebhookEndpointList"]> {
  const page = await ctx.store.webhookEndpoints.find("account", principal.accountId, readPageQuery(query));
  return { endpoints: page.items.map(toWireEndpoint), nextCursor: nextCursor(page) };
}

export async function getSandboxWebhookEndpoint(
  ctx: DomainContext,
  { principal, path: { endpointId: id } }: OperationInput<"getSandboxWebhookEndpoint">,
): Promise<Schemas["SandboxWebhookEndpoint"]> {
  return toWireEndpoint(await loadOwnWebhookEndpoint(ctx.store, principal, id));
}

/** Deletes an endpoint; its pending deliveries end as dead, and its log stays readable. */
export async function deleteSandboxWebhookEndpoint(
  ctx: DomainContext,
  { principal, path: { endpointId: id } }: OperationInput<"deleteSandboxWebhookEndpoint">,
): Promise<undefined> {
  await ctx.store.withTransaction(async (tx) => {
    await loadOwnWebhookEndpoint(tx, principal, id);
    await removeEndpoint(ctx, tx, id);
  });
  return undefined;
}

/** Deletes an endpoint in the caller's transaction, and ends its pending deliveries as dead. */
export async function removeEndpoint(ctx: DomainContext, tx: StoreOperations, id: string): Promise<void> {
  await tx.webhookEndpoints.delete(id);
  const now = ctx.clock.now().toISOString();
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
}

/** Replaces the signing secret; attempts from now on, retries included, are signed with the new one. */
export async function rotateSandboxWebhookEndpointSecret(
  ctx: DomainContext,
  { principal, path: { endpointId: id } }: OperationInput<"rotateSandboxWebhookEndpointSecret">,
): Promise<Schemas["SandboxWebhookEndpointWithSecret"]> {
  return ctx.store.withTransaction(async (tx) => {
    const record = await loadOwnWebhookEndpoint(tx, principal, id);
    const rotated = { ...record, secret: newWebhookSecret(), updatedAt: ctx.clock.now().toISOString() };
    await tx.webhookEndpoints.put(rotated);
    return withSecret(rotated);
  });
}

/** Sends a test event with placeholder values and `x-request-network-test: true`, whatever the endpoint's events. */
export async function sendSandboxWebhookTest(
  ctx: DomainContext,
  { principal, path: { endpointId: id }, body }: OperationInput<"sendSandboxWebhookTest">,
): Promise<Schemas["SandboxWebhookDelivery"]> {
  const event: DeliveryEventName = body?.event ?? "payment.confirmed";
  const now = ctx.clock.now();
  const delivery = await ctx.store.withTransaction(async (tx) => {
    const endpoint = await loadOwnWebhookEndpoint(tx, principal, id);
    const record = createDeliveryRecord({
      endpoint,
      eventId: newUlid(now),
      event,
      requestId: null,
      payload: buildTestPayload(event, now),
      test: true,
      now,
    });
    await tx.webhookDeliveries.put(record);
    return record;
  });
  ctx.webhooks.enqueue(delivery.id);
  return toWireDelivery(delivery);
}
