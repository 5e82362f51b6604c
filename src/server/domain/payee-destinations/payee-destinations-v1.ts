import { getAddress } from "viem";
import { findTokenByAddress, formatPayeeDestinationId, networkOfChainId } from "../../../chain/index.ts";
import { invalidField, invalidState, notFound } from "../../problems.ts";
import type { PayeeDestinationRecord } from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { findOwnPayeeDestination, loadOwnPayeeDestination } from "../shared/own-records.ts";
import { canonicalDestinationId } from "../shared/payee-destination-ids.ts";
import type { Principal } from "../shared/principal.ts";
import { isWallet, notOwned, sessionWallet } from "../shared/wallet-session.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { activateDestination, type DestinationTarget, toWirePayeeDestination } from "./payee-destinations.ts";
import { askWalletChange } from "./wallet-change.ts";

// The Auth API's payee-destination operations: the records of /v2/payee-destination, changed by
// the signed-in wallet (its session is its proof) instead of by a signature per change.

type DestinationBody = Schemas["PayeeDestinationV1Request"];

export function toWirePayeeDestinationV1(record: PayeeDestinationRecord): Schemas["PayeeDestinationV1"] {
  return {
    ...toWirePayeeDestination(record),
    walletType: "eoa",
    claimed: true,
    accessPolicy: record.accessPolicy ?? null,
    pendingWalletChange: record.pendingWalletChange ?? null,
  };
}

/** The destination a body names, its wallet `wallet` unless the body names another; 400 naming a bad chain or token. */
function resolveTarget(body: DestinationBody, wallet: string): DestinationTarget {
  const network = networkOfChainId(body.chainId);
  if (!network) {
    throw invalidField("/body/chainId", `names chain ${body.chainId}, which the service does not support`);
  }
  const token = findTokenByAddress(network, body.tokenAddress);
  if (!token) {
    throw invalidField(
      "/body/tokenAddress",
      `is not a token the service knows on ${network} (see GET /v2/currencies?network=${network})`,
    );
  }
  const walletAddress = getAddress(body.walletAddress ?? wallet);
  const tokenAddress = getAddress(token.address);
  const destinationId = formatPayeeDestinationId({ walletAddress, chainId: body.chainId, tokenAddress });
  return { destinationId, walletAddress, chainId: body.chainId, tokenAddress };
}

/** The signed-in wallet's active destination in its account, or undefined. */
function activeOf(store: Pick<StoreOperations, "payeeDestinations">, principal: Principal, wallet: string) {
  return store.payeeDestinations.first("activeWallet", {
    accountId: principal.accountId,
    walletAddress: wallet,
  });
}

/** The signed-in wallet's active destination, or null. */
export async function getActivePayeeDestinationV1(
  ctx: DomainContext,
  { principal }: OperationInput<"getActivePayeeDestinationV1">,
): Promise<Schemas["PayeeDestinationV1"] | null> {
  const wallet = await sessionWallet(ctx.store, principal);
  const record = await activeOf(ctx.store, principal, wallet);
  return record ? toWirePayeeDestinationV1(record) : null;
}

/** Registers (or makes active again) a destination of the signed-in wallet, as its active one. */
export async function createPayeeDestinationV1(
  ctx: DomainContext,
  { principal, body }: OperationInput<"createPayeeDestinationV1">,
): Promise<Schemas["PayeeDestinationV1"]> {
  const at = ctx.clock.now().toISOString();
  const record = await ctx.store.withTransaction(async (tx) => {
    const wallet = await sessionWallet(tx, principal);
    if (body.walletAddress !== undefined && !isWallet(body.walletAddress, wallet)) {
      throw invalidField(
        "/body/walletAddress",
        `is not the signed-in wallet ${getAddress(wallet)}; leave it out, or sign in with that wallet`,
      );
    }
    return activateDestination(tx, principal.accountId, resolveTarget(body, wallet), at, body.accessPolicy);
  });
  return toWirePayeeDestinationV1(record);
}

/**
 * Changes the signed-in wallet's active destination: its access policy in place, its chain or
 * token by moving to that destination, its wallet by recording a change for co-signers.
 */
export async function updatePayeeDestinationV1(
  ctx: DomainContext,
  { principal, body }: OperationInput<"updatePayeeDestinationV1">,
): Promise<Schemas["PayeeDestinationV1"]> {
  const now = ctx.clock.now();
  const at = now.toISOString();
  const record = await ctx.store.withTransaction(async (tx) => {
    const wallet = await sessionWallet(tx, principal);
    const current = await activeOf(tx, principal, wallet);
    if (!current) {
      throw notFound(
        "The signed-in wallet has no active payee destination: register one with POST /v1/payee-destination.",
      );
    }
    const target = resolveTarget(body, current.walletAddress);
    const accessPolicy = body.accessPolicy === undefined ? (current.accessPolicy ?? null) : body.accessPolicy;
    if (target.destinationId === current.destinationId) {
      const updated = { ...current, accessPolicy, updatedAt: at };
      await tx.payeeDestinations.put(updated);
      return updated;
    }
    if (current.pendingWalletChange) {
      throw invalidState(
        `The payee destination ${current.destinationId} has a wallet change waiting for signatures (${current.pendingWalletChange.changeRequestId}); cancel it first with PATCH /v1/payee-destination/wallet-change/cancel.`,
      );
    }
    if (!isWallet(target.walletAddress, current.walletAddress)) {
      const pendingWalletChange = askWalletChange(current, target, getAddress(wallet), now);
      const updated = { ...current, accessPolicy, pendingWalletChange, updatedAt: at };
      await tx.payeeDestinations.put(updated);
      return updated;
    }
    return activateDestination(tx, principal.accountId, target, at, accessPolicy);
  });
  return toWirePayeeDestinationV1(record);
}

/** The caller's destination `key` names, when the signed-in wallet's: 403 for another wallet's. */
function ownedBy(record: PayeeDestinationRecord, wallet: string): PayeeDestinationRecord {
  if (!isWallet(record.walletAddress, wallet)) throw notOwned(record.destinationId);
  return record;
}

/** A destination of the signed-in wallet, active or not; another account's answers 404 like none. */
export async function getPayeeDestinationV1(
  ctx: DomainContext,
  { principal, query }: OperationInput<"getPayeeDestinationV1">,
): Promise<Schemas["PayeeDestinationV1"]> {
  const wallet = await sessionWallet(ctx.store, principal);
  const record = await loadOwnPayeeDestination(ctx.store, principal, query.destinationId);
  return toWirePayeeDestinationV1(ownedBy(record, wallet));
}

/** Deactivates a destination of the signed-in wallet. */
export async function deactivatePayeeDestinationV1(
  ctx: DomainContext,
  { principal, body }: OperationInput<"deactivatePayeeDestinationV1">,
): Promise<Schemas["AuthApiOutcome"]> {
  const at = ctx.clock.now().toISOString();
  await ctx.store.withTransaction(async (tx) => {
    const wallet = await sessionWallet(tx, principal);
    const destinationId = canonicalDestinationId(body.destinationId);
    const found = destinationId ? await findOwnPayeeDestination(tx, principal, destinationId) : undefined;
    if (!found) {
      throw invalidField(
        "/body/destinationId",
        `is not a payee destination of this account, got "${body.destinationId}"`,
      );
    }
    const record = ownedBy(found, wallet);
    if (!record.active) {
      throw invalidState(
        `The payee destination ${record.destinationId} is already inactive (since ${record.deactivatedAt}).`,
      );
    }
    await tx.payeeDestinations.put({ ...record, active: false, deactivatedAt: at, updatedAt: at });
  });
  return { success: true, message: "Payee destination deactivated successfully" };
}

/** The routing members of a recipient wallet's active destination in the caller's account, or null. */
export async function lookupPayoutDestination(
  ctx: DomainContext,
  { principal, query }: OperationInput<"lookupPayoutDestination">,
): Promise<Schemas["PayeeDestinationPayoutTarget"] | null> {
  await sessionWallet(ctx.store, principal);
  const record = await activeOf(ctx.store, principal, query.walletAddress);
  if (!record) return null;
  const { destinationId, walletAddress, tokenAddress, chainId } = record;
  return { destinationId, walletAddress, tokenAddress, chainId, claimed: true };
}

/** Cancels the wallet change waiting on the signed-in wallet's active destination. */
export async function cancelPayeeDestinationWalletChange(
  ctx: DomainContext,
  { principal, body }: OperationInput<"cancelPayeeDestinationWalletChange">,
): Promise<Schemas["AuthApiOutcome"]> {
  const at = ctx.clock.now().toISOString();
  await ctx.store.withTransaction(async (tx) => {
    const wallet = await sessionWallet(tx, principal);
    const current = await activeOf(tx, principal, wallet);
    if (current?.pendingWalletChange?.changeRequestId !== body.changeRequestId) {
      throw notFound(
        `No wallet change ${body.changeRequestId} is waiting on the signed-in wallet's active payee destination.`,
      );
    }
    await tx.payeeDestinations.put({ ...current, pendingWalletChange: null, updatedAt: at });
  });
  return { success: true, message: "Pending payee destination wallet change cancelled successfully" };
}
