import { getAddress, type Hex } from "viem";
import { findTokenByAddress, formatPayeeDestinationId, networkOfChainId } from "../../chain/index.ts";
import type { OperationInput } from "../operations/operation-types.ts";
import { invalidField, type ValidationIssue, validationFailed } from "../problems.ts";
import type { PayeeDestinationNonceRecord } from "../store/records.ts";
import type { StoreOperations } from "../store/store.ts";
import type { DomainContext } from "./shared/context.ts";
import { newUlid } from "./shared/ids.ts";
import type { Principal } from "./shared/principal.ts";
import { isSignedBy } from "./shared/typed-data-signatures.ts";
import type { Schemas } from "./shared/wire-types.ts";

/** How long a signing session's nonce can be used. */
const nonceLifetimeMs = 10 * 60 * 1000;

type Action = Schemas["PayeeDestinationAction"];

/** The EIP-712 typed data a payee wallet signs to add or deactivate one destination. */
export function buildPayeeDestinationTypedData(message: {
  action: Action;
  walletAddress: `0x${string}`;
  chainId: number;
  tokenAddress: `0x${string}`;
  nonce: string;
  expiresAt: string;
}): Schemas["PayeeDestinationTypedData"] {
  return {
    domain: { name: "Payee Destination", version: "1", chainId: message.chainId },
    types: {
      PayeeDestination: [
        { name: "action", type: "string" },
        { name: "walletAddress", type: "address" },
        { name: "chainId", type: "uint256" },
        { name: "tokenAddress", type: "address" },
        { name: "nonce", type: "string" },
        { name: "expiresAt", type: "string" },
      ],
    },
    primaryType: "PayeeDestination",
    message,
  };
}

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
    tx.putPayeeDestinationNonce({
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

/** Why the nonce cannot authorise `action`, or undefined when it can. */
function nonceIssue(
  record: PayeeDestinationNonceRecord | undefined,
  principal: Principal,
  action: Action,
  now: Date,
): string | undefined {
  if (!record || record.accountId !== principal.accountId) {
    return "is not a nonce of GET /v2/payee-destination/signing-data for this account";
  }
  if (record.action !== action) {
    return `was issued for the action ${record.action}; get signing data with action=${action}`;
  }
  if (record.usedAt !== null) return `was already used at ${record.usedAt}; get new signing data`;
  if (now.getTime() >= Date.parse(record.expiresAt)) {
    return `expired at ${record.expiresAt}; get new signing data`;
  }
  return undefined;
}

/**
 * Checks a signed session for `action` and marks its nonce used: 400 naming `/body/nonce` when the
 * nonce cannot be used, `/body/signature` when the session's wallet did not sign its typed data.
 * Answers the session; a throw leaves the nonce unused (the caller's transaction is undone).
 */
export async function useSignedNonce(
  tx: StoreOperations,
  input: { principal: Principal; body: Schemas["PayeeDestinationSignature"]; action: Action; now: Date },
): Promise<PayeeDestinationNonceRecord> {
  const { principal, body, action, now } = input;
  const record = await tx.getPayeeDestinationNonce(body.nonce);
  const issue = nonceIssue(record, principal, action, now);
  if (issue !== undefined || !record) throw invalidField("/body/nonce", issue ?? "is unknown");
  if (!(await isSignedBy(record.typedData, body.signature as Hex, record.walletAddress))) {
    const issues: ValidationIssue[] = [
      {
        path: "/body/signature",
        message: `is not the EIP-712 signature of ${record.walletAddress} over the signing data of this nonce`,
      },
    ];
    throw validationFailed(issues);
  }
  const used = { ...record, usedAt: now.toISOString() };
  await tx.putPayeeDestinationNonce(used);
  return used;
}
