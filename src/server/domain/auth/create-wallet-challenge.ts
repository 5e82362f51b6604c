import { getAddress, isAddress } from "viem";
import { createSiweMessage, generateSiweNonce } from "viem/siwe";
import { newUlid } from "../../ids.ts";
import { invalidField } from "../../problems.ts";
import type { WalletChallengeRecord } from "../../store/records.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { authNow } from "./sessions.ts";

/** A Tron address: `T` and 33 more base58 characters. */
const tronAddress = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;

/** What the message asks the wallet to agree to. */
const statement = "Sign in to the payreq sandbox.";

/** Checks the wallet's address: EVM only, a Tron address refused by name. */
function readEvmAddress(address: string): `0x${string}` {
  if (tronAddress.test(address)) {
    throw invalidField(
      "/body/address",
      "is a Tron address; this server signs in EVM wallets only (0x and 40 hex digits)",
    );
  }
  if (!isAddress(address, { strict: false })) {
    throw invalidField("/body/address", "must be an EVM address: 0x and 40 hex digits");
  }
  return getAddress(address);
}

/** Issues a one-time EIP-4361 message for the wallet, with a fresh nonce and an expiry. */
export async function createWalletChallenge(
  ctx: DomainContext,
  { body }: OperationInput<"createWalletChallenge">,
): Promise<Schemas["WalletChallenge"]> {
  const address = readEvmAddress(body.address);
  const chainId = body.chainId ?? 1;
  const now = authNow(ctx);
  const expiresAt = new Date(now.getTime() + ctx.auth.walletChallengeLifetimeSeconds * 1000);
  const origin = new URL(ctx.publicOrigin());
  const nonce = generateSiweNonce();
  const message = createSiweMessage({
    address,
    chainId,
    domain: origin.host,
    uri: origin.origin,
    version: "1",
    nonce,
    statement,
    issuedAt: now,
    expirationTime: expiresAt,
  });
  const record: WalletChallengeRecord = {
    id: `wch_${newUlid(now)}`,
    address: address.toLowerCase() as `0x${string}`,
    chainId,
    nonce,
    message,
    createdAt: now.toISOString(),
    expiresAt: expiresAt.toISOString(),
    usedAt: null,
  };
  await ctx.store.withTransaction((tx) => tx.walletChallenges.put(record));
  return { challengeId: record.id, nonce, message, expiresAt: record.expiresAt };
}
