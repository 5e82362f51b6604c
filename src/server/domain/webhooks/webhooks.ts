import { webhookEventNames } from "../../../wire/webhook-event.ts";
import { newUlid } from "../../ids.ts";
import { invalidField, notFound } from "../../problems.ts";
import type { WebhookEndpointRecord } from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import { createDeliveryRecord } from "../../webhook-delivery/fan-out.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { findOwnClientIdByValue, loadOwnWebhook, webhookVisibleTo } from "../shared/own-records.ts";
import type { Principal } from "../shared/principal.ts";
import { buildTestPayload } from "../shared/webhook-events.ts";
import { checkWebhookUrl, newWebhookSecret } from "../shared/webhook-targets.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { removeEndpoint, requireRoomForEndpoint } from "./webhook-endpoints.ts";

// The Auth API's /v1/webhook operations: the same records as the sandbox's webhook endpoints,
// seen with their whole secret, a client ID scope and an on/off switch.

/** A webhook endpoint as the Auth API shows it. */
export function toWireWebhook(record: WebhookEndpointRecord): Schemas["Webhook"] {
  return {
    id: record.id,
    url: record.url,
    secret: record.secret,
    isActive: record.active !== false,
    clientId: record.clientId ?? null,
    createdAt: record.createdAt,
  };
}

/**
 * The client ID a call is scoped to: the caller's own client ID, or, with a session, the body's
 * (one of the account's), or null for platform-wide.
 */
async function readScope(
  tx: StoreOperations,
  principal: Principal,
  requested: string | undefined,
): Promise<string | null> {
  if (principal.kind === "clientId") {
    const own = principal.clientId.clientId;
    if (requested !== undefined && requested !== own) {
      throw invalidField(
        "/body/clientId",
        "must be the client ID the call is made with (x-client-id), or absent",
      );
    }
    return own;
  }
  if (requested === undefined) return null;
  if (!(await findOwnClientIdByValue(tx, principal, requested))) {
    throw invalidField("/body/clientId", "is not a client ID of this account");
  }
  return requested;
}

export async function createWebhook(
  ctx: DomainContext,
  { principal, body }: OperationInput<"createWebhook">,
): Promise<Schemas["Webhook"]> {
  await checkWebhookUrl(ctx, body.url);
  return ctx.store.withTransaction(async (tx) => {
    const scope = await readScope(tx, principal, body.clientId);
    const existing = (await tx.webhookEndpoints.find("account", principal.accountId)).items.find(
      (endpoint) => endpoint.url === body.url && (endpoint.clientId ?? null) === scope,
    );
    if (existing) {
      const where = scope === null ? "a platform-wide webhook" : `a webhook for client ID ${scope}`;
      throw invalidField("/body/url", `already has ${where} (${existing.id})`);
    }
    await requireRoomForEndpoint(ctx, tx, principal.accountId);
    const now = ctx.clock.now();
    const record: WebhookEndpointRecord = {
      id: `we_${newUlid(now)}`,
      accountId: principal.accountId,
      scope: "account",
      url: body.url,
      secret: newWebhookSecret(),
      events: [...webhookEventNames],
      source: "api",
      clientId: scope,
      active: true,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    await tx.webhookEndpoints.put(record);
    return toWireWebhook(record);
  });
}

export async function listWebhooks(
  ctx: DomainContext,
  { principal }: OperationInput<"listWebhooks">,
): Promise<Schemas["WebhookList"]> {
  const { items } = await ctx.store.webhookEndpoints.find("account", principal.accountId);
  return items.filter((endpoint) => webhookVisibleTo(principal, endpoint)).map(toWireWebhook);
}

/** Switches a webhook off when on, on when off. */
export async function toggleWebhook(
  ctx: DomainContext,
  { principal, path: { webhookId } }: OperationInput<"toggleWebhook">,
): Promise<Schemas["Webhook"]> {
  return ctx.store.withTransaction(async (tx) => {
    const endpoint = await loadOwnWebhook(tx, principal, webhookId);
    const toggled = {
      ...endpoint,
      active: endpoint.active === false,
      updatedAt: ctx.clock.now().toISOString(),
    };
    await tx.webhookEndpoints.put(toggled);
    return toWireWebhook(toggled);
  });
}

export async function deleteWebhook(
  ctx: DomainContext,
  { principal, path: { webhookId } }: OperationInput<"deleteWebhook">,
): Promise<undefined> {
  await ctx.store.withTransaction(async (tx) => {
    await loadOwnWebhook(tx, principal, webhookId);
    await removeEndpoint(ctx, tx, webhookId);
  });
  return undefined;
}

/** Queues a test delivery of the event to each active webhook in scope. */
export async function testWebhook(
  ctx: DomainContext,
  { principal, body }: OperationInput<"testWebhook">,
): Promise<Schemas["WebhookTestResult"]> {
  const now = ctx.clock.now();
  const deliveries = await ctx.store.withTransaction(async (tx) => {
    const scope = await readScope(tx, principal, body.clientId);
    const targets = (await tx.webhookEndpoints.find("account", principal.accountId)).items.filter(
      (endpoint) => endpoint.active !== false && (endpoint.clientId ?? null) === scope,
    );
    if (targets.length === 0) {
      const where = scope === null ? "platform-wide in this account" : `scoped to client ID ${scope}`;
      throw notFound(`No active webhook is ${where}; create one with POST /v1/webhook or switch one on.`);
    }
    const eventId = newUlid(now);
    const payload = buildTestPayload(body.eventType, now);
    const created = [];
    for (const endpoint of targets) {
      const record = createDeliveryRecord({
        endpoint,
        eventId,
        event: body.eventType,
        requestId: null,
        payload,
        test: true,
        now,
      });
      await tx.webhookDeliveries.put(record);
      created.push({ webhookId: endpoint.id, deliveryId: record.id });
    }
    return created;
  });
  for (const { deliveryId } of deliveries) ctx.webhooks.enqueue(deliveryId);
  return { eventType: body.eventType, deliveries };
}
