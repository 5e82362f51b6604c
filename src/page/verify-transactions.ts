import type { Address } from "viem";
import type { ExpectedLink } from "./expected-link.ts";
import { verifyBatchPayment } from "./verify-batch.ts";
import type { Verification } from "./verify-common.ts";
import { verifySinglePayment } from "./verify-single.ts";

export type { CheckedStep, Mismatch, MismatchField, Verification } from "./verify-common.ts";

/**
 * The check before signing: every transaction goes to an official contract of the link's network
 * (or is an approval of a payment token with an official contract as spender) and its decoded
 * calldata pays exactly the payees, amounts, fees and payment references the payer reviewed.
 * `payer` is the connected wallet, which a batch without fees names as its fee address.
 */
export function verifyTransactions(
  link: ExpectedLink,
  transactions: readonly unknown[],
  payer: Address,
): Verification {
  return link.paymentType === "single"
    ? verifySinglePayment(link, transactions)
    : verifyBatchPayment(link, transactions, payer);
}
