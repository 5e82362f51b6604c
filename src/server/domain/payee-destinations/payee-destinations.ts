import {
  findTokenByAddress,
  formatBinaryInteropAddress,
  formatPayeeAddress,
  type NetworkName,
  networkOfChainId,
  parsePayeeDestinationId,
} from "../../../chain/index.ts";
import { invalidField, invalidState } from "../../problems.ts";
import type { PayeeDestinationRecord } from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadOwnPayeeDestination } from "../shared/own-records.ts";
import { formatDestinationKey } from "../shared/payee-destination-ids.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { useSignedNonce } from "./payee-destination-signing.ts";

export function toWirePayeeDestination(record: PayeeDestinationRecord): Schemas["PayeeDestination"] {
  const token = findTokenByAddress(record.network as NetworkName, record.tokenAddress);
  if (!token) throw new Error(`payee destination ${record.destinationId} has a token the table lacks`);
  return {
    id: formatDestinationKey(record.network, record.walletAddress, record.tokenAddress),
    destinationId: record.destinationId,
    walletAddress: record.walletAddress,
    chainId: record.chainId,
    network: record.network,
    tokenAddress: record.tokenAddress,
    paymentCurrency: token.id,
    humanReadableInteropAddress: formatPayeeAddress(record.walletAddress, record.chainId),
    binaryInteropAddress: formatBinaryInteropAddress(record.walletAddress, record.chainId),
    active: record.active,
    createdAt: record.createdAt,
    deactivatedAt: record.deactivatedAt,
  };
}

/** A destination to make active: its canonical id and what that id names. */
export interface DestinationTarget {
  destinationId: string;
  walletAddress: `0x${string}`;
  chainId: number;
  tokenAddress: `0x${string}`;
}

/**
 * Makes a destination of the account active, registering it or making it active again, and
 * deactivates its wallet's other active destination in the same transaction. Its access policy
 * becomes `accessPolicy` when given, else stays.
 */
export async function activateDestination(
  tx: StoreOperations,
  accountId: string,
  target: DestinationTarget,
  at: string,
  accessPolicy?: PayeeDestinationRecord["accessPolicy"],
): Promise<PayeeDestinationRecord> {
  const previous = await tx.payeeDestinations.first("activeWallet", {
    accountId,
    walletAddress: target.walletAddress,
  });
  if (previous && previous.destinationId !== target.destinationId) {
    await tx.payeeDestinations.put({ ...previous, active: false, deactivatedAt: at, updatedAt: at });
  }
  const existing = await tx.payeeDestinations.get({ accountId, destinationId: target.destinationId });
  const policy = accessPolicy === undefined ? (existing?.accessPolicy ?? null) : accessPolicy;
  const registered: PayeeDestinationRecord = {
    ...existing,
    accountId,
    destinationId: target.destinationId,
    walletAddress: target.walletAddress,
    chainId: target.chainId,
    network: networkOf(target.chainId),
    tokenAddress: target.tokenAddress,
    active: true,
    createdAt: existing?.createdAt ?? at,
    updatedAt: at,
    deactivatedAt: null,
    ...(policy === null ? {} : { accessPolicy: policy }),
  };
  await tx.payeeDestinations.put(registered);
  return registered;
}

/**
 * Registers the destination of a signed `add` session and makes it the wallet's active one: the
 * wallet's other active destination, if any, is deactivated in the same change.
 */
export async function createPayeeDestination(
  ctx: DomainContext,
  { principal, body }: OperationInput<"createPayeeDestination">,
): Promise<Schemas["PayeeDestination"]> {
  const now = ctx.clock.now();
  const record = await ctx.store.withTransaction(async (tx) => {
    const session = await useSignedNonce(tx, { principal, body, action: "add", now });
    const destination = parsePayeeDestinationId(session.destinationId);
    if (!destination) throw new Error(`nonce ${session.nonce} holds an unreadable destination`);
    const target = { ...destination, destinationId: session.destinationId };
    return activateDestination(tx, principal.accountId, target, now.toISOString());
  });
  return toWirePayeeDestination(record);
}

/** The network of a chain the signing session already checked. */
function networkOf(chainId: number): NetworkName {
  const network = networkOfChainId(chainId);
  if (!network) throw new Error(`chain ${chainId} is no longer supported`);
  return network;
}

export async function getActivePayeeDestination(
  ctx: DomainContext,
  { principal, query }: OperationInput<"getActivePayeeDestination">,
): Promise<Schemas["PayeeDestination"] | null> {
  const record = await ctx.store.payeeDestinations.first("activeWallet", {
    accountId: principal.accountId,
    walletAddress: query.walletAddress,
  });
  return record ? toWirePayeeDestination(record) : null;
}

export async function getPayeeDestination(
  ctx: DomainContext,
  { principal, path }: OperationInput<"getPayeeDestination">,
): Promise<Schemas["PayeeDestination"]> {
  return toWirePayeeDestination(await loadOwnPayeeDestination(ctx.store, principal, path.destinationId));
}

/** Deactivates a destination with its wallet's signed `deactivate` session for it. */
export async function deactivatePayeeDestination(
  ctx: DomainContext,
  { principal, path, body }: OperationInput<"deactivatePayeeDestination">,
): Promise<Schemas["PayeeDestination"]> {
  const now = ctx.clock.now();
  const at = now.toISOString();
  const record = await ctx.store.withTransaction(async (tx) => {
    const destination = await loadOwnPayeeDestination(tx, principal, path.destinationId);
    const session = await useSignedNonce(tx, { principal, body, action: "deactivate", now });
    if (session.destinationId !== destination.destinationId) {
      throw invalidField(
        "/body/nonce",
        `was issued for the destination ${session.destinationId}, not ${destination.destinationId}`,
      );
    }
    if (!destination.active) {
      throw invalidState(
        `The payee destination ${destination.destinationId} is already inactive (since ${destination.deactivatedAt}).`,
      );
    }
    const deactivated = { ...destination, active: false, deactivatedAt: at, updatedAt: at };
    await tx.payeeDestinations.put(deactivated);
    return deactivated;
  });
  return toWirePayeeDestination(record);
}
