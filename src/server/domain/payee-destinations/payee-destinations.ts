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

/**
 * Registers the destination of a signed `add` session and makes it the wallet's active one: the
 * wallet's other active destination, if any, is deactivated in the same change.
 */
export async function createPayeeDestination(
  ctx: DomainContext,
  { principal, body }: OperationInput<"createPayeeDestination">,
): Promise<Schemas["PayeeDestination"]> {
  const now = ctx.clock.now();
  const at = now.toISOString();
  const record = await ctx.store.withTransaction(async (tx) => {
    const session = await useSignedNonce(tx, { principal, body, action: "add", now });
    const destination = parsePayeeDestinationId(session.destinationId);
    if (!destination) throw new Error(`nonce ${session.nonce} holds an unreadable destination`);
    const previous = await tx.payeeDestinations.first("activeWallet", {
      accountId: principal.accountId,
      walletAddress: destination.walletAddress,
    });
    if (previous && previous.destinationId !== session.destinationId) {
      await tx.payeeDestinations.put({ ...previous, active: false, deactivatedAt: at, updatedAt: at });
    }
    const existing = await tx.payeeDestinations.get({
      accountId: principal.accountId,
      destinationId: session.destinationId,
    });
    const network = networkOf(destination.chainId);
    const registered: PayeeDestinationRecord = {
      accountId: principal.accountId,
      destinationId: session.destinationId,
      walletAddress: destination.walletAddress,
      chainId: destination.chainId,
      network,
      tokenAddress: destination.tokenAddress,
      active: true,
      createdAt: existing?.createdAt ?? at,
      updatedAt: at,
      deactivatedAt: null,
    };
    await tx.payeeDestinations.put(registered);
    return registered;
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
