import { newClientIdValue, newUlid } from "../../ids.ts";
import { invalidState, type ValidationIssue, validationFailed } from "../../problems.ts";
import type { ClientIdRecord } from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import { effectiveAllowedDomains } from "../shared/client-ids.ts";
import type { DomainContext } from "../shared/context.ts";
import { resolveFee } from "../shared/fees.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadOwnClientId } from "../shared/own-records.ts";
import type { Principal } from "../shared/principal.ts";
import type { Schemas } from "../shared/wire-types.ts";

/** A client-ID record as the API answers it: without its account, `self` read as the server's origin. */
export function toWireClientId(ctx: DomainContext, record: ClientIdRecord): Schemas["ClientId"] {
  const { accountId: _account, ...wire } = record;
  return { ...wire, allowedDomains: effectiveAllowedDomains(record, ctx.publicOrigin()) };
}

type Address = `0x${string}`;

/**
 * The origins as browsers send them (`new URL(x).origin`: lower-case host, no default port, no
 * trailing `/`), each once. 400 naming the item that is not an origin at all.
 */
function normaliseOrigins(values: string[], pointer: string): string[] {
  const issues: ValidationIssue[] = [];
  const origins = values.map((value, index) => {
    try {
      return new URL(value).origin;
    } catch {
      issues.push({ path: `${pointer}/${index}`, message: `is not an origin, got "${value}"` });
      return "";
    }
  });
  if (issues.length > 0) throw validationFailed(issues);
  return [...new Set(origins)];
}

/**
 * A client ID's fee, checked by the rule every fee follows (both members or neither, never to
 * the zero address); `null` members count as absent. A zero fee stores as no fee.
 */
function checkFee(
  fee: { feePercentage?: string | null | undefined; feeAddress?: string | null | undefined },
  principal: Principal,
): Pick<ClientIdRecord, "feePercentage" | "feeAddress"> {
  const checked = resolveFee(
    { feePercentage: fee.feePercentage ?? undefined, feeAddress: fee.feeAddress ?? undefined },
    { kind: "apiKey", accountId: principal.accountId },
    "/body",
  );
  return { feePercentage: checked.feePercentage ?? null, feeAddress: checked.feeAddress ?? null };
}

/** Builds (not stores) an active client ID of the caller's account, with a ULID `id` and a random public value. */
export function buildClientId(
  ctx: DomainContext,
  principal: Principal,
  body: OperationInput<"createClientId">["body"],
  payeeDestinationId: string | null,
): ClientIdRecord {
  const allowedDomains = normaliseOrigins(body.allowedDomains, "/body/allowedDomains");
  const fee = checkFee(body, principal);
  const now = ctx.clock.now();
  return {
    id: newUlid(now),
    accountId: principal.accountId,
    clientId: newClientIdValue(),
    label: body.label,
    allowedDomains,
    ...fee,
    operatorWalletAddress: (body.operatorWalletAddress ?? null) as Address | null,
    defaultPreApprovalExpiry: body.defaultPreApprovalExpiry ?? null,
    defaultAuthorizationExpiry: body.defaultAuthorizationExpiry ?? null,
    status: "active",
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    lastUsedAt: null,
    ...(payeeDestinationId === null ? {} : { payeeDestinationId }),
  };
}

/** Creates an active client ID of the caller's account, with a ULID `id` and a random public value. */
export async function createClientId(
  ctx: DomainContext,
  { principal, body }: OperationInput<"createClientId">,
): Promise<Schemas["ClientId"]> {
  const record = buildClientId(ctx, principal, body, null);
  await ctx.store.withTransaction((tx) => tx.clientIds.put(record));
  return toWireClientId(ctx, record);
}

/** Every client ID of the caller's account, oldest first, revoked ones included. */
export function listClientIds(
  ctx: DomainContext,
  { principal }: OperationInput<"listClientIds">,
): Promise<Schemas["ClientIdList"]> {
  return listAccountClientIds(ctx, principal);
}

/** Every client ID of the caller's account, oldest first, revoked ones included. */
export async function listAccountClientIds(
  ctx: DomainContext,
  principal: Principal,
): Promise<Schemas["ClientIdList"]> {
  const records = (await ctx.store.clientIds.find("account", principal.accountId)).items;
  records.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return records.map((record) => toWireClientId(ctx, record));
}

/** A client-ID record of the caller's own account; another account's answers 404 like a missing one. */
export async function getClientId(
  ctx: DomainContext,
  { principal, path: { id } }: OperationInput<"getClientId">,
): Promise<Schemas["ClientId"]> {
  return toWireClientId(ctx, await loadOwnClientId(ctx.store, principal, id));
}

/** `given` unless the body left the member out (`undefined`); `null` is a value here: it unsets. */
const changedOr = <T>(given: T | undefined, current: T): T => (given === undefined ? current : given);

/** The members of a client ID a change may name, as both APIs take them. */
export type ClientIdChange = OperationInput<"updateClientId">["body"];

/**
 * Applies a change to a client ID of the caller's account, in the caller's transaction. A revoked
 * client ID cannot take another status (400 invalid-state); the fee must end up complete or absent.
 * `payeeDestinationId` is left as it is when undefined.
 */
export async function changeClientId(
  ctx: DomainContext,
  tx: StoreOperations,
  input: { principal: Principal; id: string; body: ClientIdChange; payeeDestinationId?: string | null },
): Promise<ClientIdRecord> {
  const { principal, id, body } = input;
  const record = await loadOwnClientId(tx, principal, id);
  if (record.status === "revoked" && body.status !== undefined && body.status !== "revoked") {
    throw invalidState(
      `Client ID ${id} is revoked; a revoked client ID cannot become ${body.status} again. Create a new one.`,
    );
  }
  const fee = checkFee(
    {
      feePercentage: changedOr(body.feePercentage, record.feePercentage),
      feeAddress: changedOr(body.feeAddress, record.feeAddress),
    },
    principal,
  );
  const updated: ClientIdRecord = {
    ...record,
    label: changedOr(body.label, record.label),
    allowedDomains:
      body.allowedDomains === undefined
        ? record.allowedDomains
        : normaliseOrigins(body.allowedDomains, "/body/allowedDomains"),
    ...fee,
    operatorWalletAddress: changedOr(
      body.operatorWalletAddress as Address | null | undefined,
      record.operatorWalletAddress,
    ),
    defaultPreApprovalExpiry: changedOr(body.defaultPreApprovalExpiry, record.defaultPreApprovalExpiry),
    defaultAuthorizationExpiry: changedOr(body.defaultAuthorizationExpiry, record.defaultAuthorizationExpiry),
    status: changedOr(body.status, record.status),
    updatedAt: ctx.clock.now().toISOString(),
  };
  if (input.payeeDestinationId !== undefined) updated.payeeDestinationId = input.payeeDestinationId;
  await tx.clientIds.put(updated);
  return updated;
}

/** Changes what the body names of a client ID of the caller's account (see `changeClientId`). */
export async function updateClientId(
  ctx: DomainContext,
  { principal, path: { id }, body }: OperationInput<"updateClientId">,
): Promise<Schemas["ClientId"]> {
  const updated = await ctx.store.withTransaction((tx) => changeClientId(ctx, tx, { principal, id, body }));
  return toWireClientId(ctx, updated);
}

/** Revokes a client ID of the caller's account for good, in the caller's transaction; again changes nothing. */
export async function revokeClientId(
  ctx: DomainContext,
  tx: StoreOperations,
  principal: Principal,
  id: string,
): Promise<void> {
  const record = await loadOwnClientId(tx, principal, id);
  if (record.status === "revoked") return;
  await tx.clientIds.put({ ...record, status: "revoked", updatedAt: ctx.clock.now().toISOString() });
}

/** Revokes a client ID of the caller's account for good; revoking it again changes nothing. */
export async function deleteClientId(
  ctx: DomainContext,
  { principal, path: { id } }: OperationInput<"deleteClientId">,
): Promise<undefined> {
  await ctx.store.withTransaction((tx) => revokeClientId(ctx, tx, principal, id));
  return undefined;
}
