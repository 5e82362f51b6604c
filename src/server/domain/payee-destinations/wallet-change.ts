import { hashMessage } from "viem";
import { newUlid } from "../../ids.ts";
import type { PayeeDestinationRecord } from "../../store/records.ts";
import type { Schemas } from "../shared/wire-types.ts";
import type { DestinationTarget } from "./payee-destinations.ts";

/** The text a wallet change's co-signers sign: every member of the change, on its own line. */
export function walletChangeMessage(change: {
  currentWalletAddress: string;
  currentChainId: number;
  newWalletAddress: string;
  targetChainId: number;
  currentTokenAddress: string;
  targetTokenAddress: string;
  nonce: string;
}): string {
  return [
    "Change the payee destination wallet",
    `from ${change.currentWalletAddress} on chain ${change.currentChainId}`,
    `to ${change.newWalletAddress} on chain ${change.targetChainId}`,
    `token ${change.currentTokenAddress} -> ${change.targetTokenAddress}`,
    `nonce ${change.nonce}`,
  ].join("\n");
}

/** A change of `current` to `target`'s wallet, chain and token, waiting for its co-signers. */
export function askWalletChange(
  current: PayeeDestinationRecord,
  target: DestinationTarget,
  askedBy: `0x${string}`,
  now: Date,
): Schemas["PayeeDestinationWalletChange"] {
  const members = {
    currentWalletAddress: current.walletAddress,
    currentChainId: current.chainId,
    newWalletAddress: target.walletAddress,
    targetChainId: target.chainId,
    currentTokenAddress: current.tokenAddress,
    targetTokenAddress: target.tokenAddress,
    nonce: newUlid(now),
  };
  const message = walletChangeMessage(members);
  return {
    changeRequestId: newUlid(now),
    status: "pending_signatures",
    payeeIdentityAddress: askedBy,
    ...members,
    safeMessageHash: hashMessage(message),
    message,
    createdAt: now.toISOString(),
  };
}
