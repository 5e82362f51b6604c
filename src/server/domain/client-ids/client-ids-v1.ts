import { invalidField } from "../../problems.ts";
import type { StoreOperations } from "../../store/store.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { findOwnPayeeDestination, loadOwnClientId } from "../shared/own-records.ts";
import { canonicalDestinationId } from "../shared/payee-destination-ids.ts";
import type { Principal } from "../shared/principal.ts";
import type { Schemas } from "../shared/wire-types.ts";
import {
  buildClientId,
  changeClientId,
  listAccountClientIds,
  revokeClientId,
  toWireClientId,
} from "./client-ids.ts";

// The Auth API's client-ID operations: the same records as /v2/client-ids, reached with the
// session's account instead of the API key's.

/**
 * The canonical id of the active payee destination of the caller's account a body names; 400
 * naming `/body/payeeDestinationId` for any other, another account's included.
 */
async function boundDestination(tx: StoreOperations, principal: Principal, key: string): Promise<string> {
  const destinationId = canonicalDestinationId(key);
  const destination = destinationId ? await findOwnPayeeDestination(tx, principal, destinationId) : undefined;
  if (!destination?.active) {
    throw invalidField(
      "/body/payeeDestinationId",
      `is not an active payee destination of this account, got "${key}"`,
    );
  }
  return destination.destinationId;
}

/** Creates an active client ID of the session's account, bound to a payee destination if the body names one. */
export async function createClientIdV1(
  ctx: DomainContext,
  { principal, body }: OperationInput<"createClientIdV1">,
): Promise<Schemas["ClientId"]> {
  const record = await ctx.store.withTransaction(async (tx) => {
    const destination =
      body.payeeDestinationId === undefined
        ? null
        : await boundDestination(tx, principal, body.payeeDestinationId);
    const built = buildClientId(ctx, principal, body, destination);
    await tx.clientIds.put(built);
    return built;
  });
  return toWireClientId(ctx, record);
}

/** Every client ID of the session's account, oldest first, as `GET /v2/client-ids` lists them. */
export function listClientIdsV1(
  ctx: DomainContext,
  { principal }: OperationInput<"listClientIdsV1">,
): Promise<Schemas["ClientIdList"]> {
  return listAccountClientIds(ctx, principal);
}

/** A client ID of the session's account; another account's answers 404 like a missing one. */
export async function getClientIdV1(
  ctx: DomainContext,
  { principal, path: { id } }: OperationInput<"getClientIdV1">,
): Promise<Schemas["ClientId"]> {
  return toWireClientId(ctx, await loadOwnClientId(ctx.store, principal, id));
}

/** Changes what the body names of a client ID of the session's account, its payee destination included. */
export async function updateClientIdV1(
  ctx: DomainContext,
  { principal, path: { id }, body }: OperationInput<"updateClientIdV1">,
): Promise<Schemas["ClientId"]> {
  const { payeeDestinationId, ...change } = body;
  const updated = await ctx.store.withTransaction(async (tx) => {
    const bound =
      payeeDestinationId === undefined || payeeDestinationId === null
        ? payeeDestinationId
        : await boundDestination(tx, principal, payeeDestinationId);
    return changeClientId(ctx, tx, {
      principal,
      id,
      body: change,
      ...(bound === undefined ? {} : { payeeDestinationId: bound }),
    });
  });
  return toWireClientId(ctx, updated);
}

/** Revokes a client ID of the session's account for good; revoking it again changes nothing. */
export async function deleteClientIdV1(
  ctx: DomainContext,
  { principal, path: { id } }: OperationInput<"deleteClientIdV1">,
): Promise<undefined> {
  await ctx.store.withTransaction((tx) => revokeClientId(ctx, tx, principal, id));
  return undefined;
}
