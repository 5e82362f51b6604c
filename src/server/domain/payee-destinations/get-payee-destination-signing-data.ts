import { getAddress } from "viem";
import { findTokenByAddress, formatPayeeDestinationId, networkOfChainId } from "../../../chain/index.ts";
import { newUlid } from "../../ids.ts";
import { invalidField } from "../../problems.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { buildPayeeDestinationTypedData } from "./payee-destination-signing.ts";

/** How long a signing session's nonce can be used. */
const nonceLifetimeMs = 10 * 60 * 1000;

/** The network and token the signing-data query names, or 400 naming the parameter. */
function resolveQuery(query: OperationInput<"getPayeeDestinationSigningData">["query"]) {
  const chainId = Number(query.chainId);
  const network = Number.isSafeInteger(chainId) ? networkOfChainId(chainId) : undefined;
  if (!network) {
    throw invalidField("/query/chainId", `names chain ${query.chainId}, which the service does not support`);
  }
  const token = findTokenByAddress(network, query.tokenAddress);
  if (!token) {
    throw invalidField(
      "/query/tokenAddress",
      `is not a token the service knows on ${network} (see GET /v2/currencies?network=${network})`,
    );
  }
  return { chainId, walletAddress: getAddress(query.walletAddress), tokenAddress: getAddress(token.address) };
}

/** Starts a signing session: the typed data the payee wallet signs, and its single-use nonce. */
export async function getPayeeDestinationSigningData(
  ctx: DomainContext,
  { principal, query }: OperationInput<"getPayeeDestinationSigningData">,
): Promise<Schemas["PayeeDestinationSigningData"]> {
  const { chainId, walletAddress, tokenAddress } = resolveQuery(query);
  const now = ctx.clock.now();
  const nonce = newUlid(now);
  const expiresAt = new Date(now.getTime() + nonceLifetimeMs).toISOString();
  const destinationId = formatPayeeDestinationId({ walletAddress, chainId, tokenAddress });
  const typedData = buildPayeeDestinationTypedData({
    action: query.action,
    walletAddress,
    chainId,
    tokenAddress,
    nonce,
    expiresAt,
  });
  await ctx.store.withTransaction((tx) =>
    tx.payeeDestinationNonces.put({
      nonce,
      accountId: principal.accountId,
      action: query.action,
      destinationId,
      walletAddress,
      typedData: JSON.stringify(typedData),
      expiresAt,
      usedAt: null,
    }),
  );
  return {
    nonce,
    action: query.action,
    walletAddress,
    chainId,
    tokenAddress,
    destinationId,
    expiresAt,
    typedData,
  };
}
