import type { ClientIdConfig } from "../config/sandbox-config.ts";
import type { OperationInput } from "../operations/operation-types.ts";
import type { ClientIdRecord } from "../store/records.ts";
import type { StoreOperations } from "../store/store.ts";
import type { DomainContext } from "./shared/context.ts";
import { requireOwnRecord } from "./shared/own-records.ts";
import type { Principal } from "./shared/principal.ts";
import type { Schemas } from "./shared/wire-types.ts";

/** The record a configured client ID starts as. */
export function clientIdRecordFromConfig(
  accountId: string,
  config: ClientIdConfig,
  now: Date,
): ClientIdRecord {
  return {
    id: config.id,
    accountId,
    clientId: config.clientId,
    label: config.label,
    allowedDomains: [...config.allowedDomains],
    feePercentage: config.feePercentage ?? null,
    feeAddress: (config.feeAddress ?? null) as ClientIdRecord["feeAddress"],
    operatorWalletAddress: (config.operatorWalletAddress ?? null) as ClientIdRecord["operatorWalletAddress"],
    defaultPreApprovalExpiry: config.defaultPreApprovalExpiry ?? null,
    defaultAuthorizationExpiry: config.defaultAuthorizationExpiry ?? null,
    status: config.status ?? "active",
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    lastUsedAt: null,
  };
}

/** The origins a client ID accepts, with `self` read as the server's public origin. */
export function effectiveAllowedDomains(record: ClientIdRecord, publicOrigin: string): string[] {
  return [...new Set(record.allowedDomains.map((domain) => (domain === "self" ? publicOrigin : domain)))];
}

/** Whether a client ID is active and accepts calls from `origin`. */
export function allowsOrigin(record: ClientIdRecord, origin: string, publicOrigin: string): boolean {
  return record.status === "active" && effectiveAllowedDomains(record, publicOrigin).includes(origin);
}

/** A client-ID record as the API answers it: without its account, `self` read as the server's origin. */
export function toWireClientId(ctx: DomainContext, record: ClientIdRecord): Schemas["ClientId"] {
  const { accountId: _account, ...wire } = record;
  return { ...wire, allowedDomains: effectiveAllowedDomains(record, ctx.publicOrigin()) };
}

/** The client-ID record `id` of the caller's account; 404 for another account's, like a missing one. */
export function requireOwnClientId(
  store: StoreOperations,
  principal: Principal,
  id: string,
): Promise<ClientIdRecord> {
  return requireOwnRecord(store.getClientId(id), principal, `No client ID of your account has the id ${id}.`);
}

/** A client-ID record of the caller's own account; another account's answers 404 like a missing one. */
export async function getClientId(
  ctx: DomainContext,
  { principal, path: { id } }: OperationInput<"getClientId">,
): Promise<Schemas["ClientId"]> {
  return toWireClientId(ctx, await requireOwnClientId(ctx.store, principal, id));
}
