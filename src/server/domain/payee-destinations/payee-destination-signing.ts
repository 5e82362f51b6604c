import type { Hex } from "viem";
import { invalidField, type ValidationIssue, validationFailed } from "../../problems.ts";
import type { PayeeDestinationNonceRecord } from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import { findOwnSigningNonce } from "../shared/own-records.ts";
import type { Principal } from "../shared/principal.ts";
import { isSignedBy } from "../shared/typed-data-signatures.ts";
import type { Schemas } from "../shared/wire-types.ts";

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

/** Why the nonce (the caller's session, if any) cannot authorise `action`, or undefined when it can. */
function nonceIssue(
  record: PayeeDestinationNonceRecord | undefined,
  action: Action,
  now: Date,
): string | undefined {
  if (!record) {
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
  const record = await findOwnSigningNonce(tx, principal, body.nonce);
  const issue = nonceIssue(record, action, now);
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
  await tx.payeeDestinationNonces.put(used);
  return used;
}
