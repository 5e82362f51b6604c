import { type Address, decodeFunctionData, formatUnits, getAddress, type Hex, isAddress, isHex } from "viem";
import type { components } from "../../generated/schema.d.ts";
import { erc20ApproveAbi, type TokenRecord } from "../chain/index.ts";
import { transactionValueToBigInt } from "../wire/transaction-value.ts";
import type { ExpectedLink } from "./expected-link.ts";
import { networkLabel } from "./page-chains.ts";

export type WireTransaction = components["schemas"]["Transaction"];

/** What part of a transaction did not match the payment the payer reviewed. */
export type MismatchField =
  | "form"
  | "target"
  | "function"
  | "token"
  | "spender"
  | "approvalAmount"
  | "payee"
  | "amount"
  | "fee"
  | "feeAddress"
  | "paymentReference"
  | "value"
  | "order"
  | "count";

export interface Mismatch {
  /** 1-based position of the transaction, or null for a finding about the whole set. */
  transaction: number | null;
  field: MismatchField;
  message: string;
}

/** A transaction to send, read and described: approvals and payments, in sending order. */
export interface CheckedStep {
  kind: "approval" | "payment" | "unknown";
  label: string;
  to: Address;
  data: Hex;
  value: bigint;
}

export interface Verification {
  steps: CheckedStep[];
  /** Empty when every transaction does exactly what the payer reviewed. */
  mismatches: Mismatch[];
}

/** Collects the steps and mismatches of one check. */
export class Findings {
  readonly steps: CheckedStep[] = [];
  readonly mismatches: Mismatch[] = [];

  add(transaction: number | null, field: MismatchField, message: string): void {
    this.mismatches.push({ transaction, field, message });
  }

  result(): Verification {
    return { steps: this.steps, mismatches: this.mismatches };
  }
}

export const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** An amount with its symbol: `125.5 USDC`. */
export const formatAmount = (units: bigint, token: TokenRecord) =>
  `${formatUnits(units, token.decimals)} ${token.symbol}`;

/** The official contract's name and address, for messages: `ERC20FeeProxy on Base (0x1892…)`. */
export function officialLabel(link: ExpectedLink, name: OfficialName): string {
  return `the official ${name} on ${networkLabel(link.network)} (${officialAddress(link, name)})`;
}

export type OfficialName = "ERC20FeeProxy" | "EthereumFeeProxy" | "BatchConversionPayments";

export function officialAddress(link: ExpectedLink, name: OfficialName): Address {
  const { contracts } = link;
  if (name === "ERC20FeeProxy") return contracts.erc20FeeProxy;
  if (name === "EthereumFeeProxy") return contracts.ethereumFeeProxy;
  return contracts.batchConversionPayments;
}

/** Reads one transaction of the server's answer; a malformed one is a mismatch, never a crash. */
export function readTransaction(raw: unknown, n: number, findings: Findings): CheckedStep | undefined {
  const candidate = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  const { to, data } = candidate;
  if (typeof to !== "string" || !isAddress(to, { strict: false })) {
    findings.add(n, "form", `Transaction ${n} has no valid target address.`);
    return undefined;
  }
  if (typeof data !== "string" || !isHex(data) || data.length % 2 !== 0) {
    findings.add(n, "form", `Transaction ${n} has no valid calldata.`);
    return undefined;
  }
  let value: bigint;
  try {
    value = transactionValueToBigInt(candidate.value as WireTransaction["value"], `transaction ${n} value`);
  } catch {
    findings.add(n, "form", `Transaction ${n} has an unreadable value.`);
    return undefined;
  }
  return { kind: "unknown", label: `Unrecognised call to ${getAddress(to.toLowerCase())}`, to, data, value };
}

/** Decodes calldata against an ABI; undefined when it calls no function of that ABI. */
export function tryDecode<const abi extends readonly unknown[]>(abi: abi, data: Hex) {
  try {
    return decodeFunctionData({ abi, data } as Parameters<typeof decodeFunctionData<abi>>[0]);
  } catch {
    return undefined;
  }
}

/**
 * Checks an ERC-20 approval: `approve(spender, amount)` on the payment token, with an official
 * contract as spender, for exactly what the payment pulls, and no native value.
 */
export function checkApproval(
  step: CheckedStep,
  n: number,
  expected: { token: TokenRecord; spenderName: OfficialName; amount: bigint; link: ExpectedLink },
  findings: Findings,
): void {
  const { token, spenderName, amount, link } = expected;
  step.kind = "approval";
  const decoded = tryDecode(erc20ApproveAbi, step.data);
  if (decoded?.functionName !== "approve") {
    step.label = `Unrecognised call to the ${token.symbol} token`;
    findings.add(
      n,
      "function",
      `Transaction ${n} calls the ${token.symbol} token, but not its approve function.`,
    );
    return;
  }
  const [spender, approved] = decoded.args;
  const official = sameAddress(spender, officialAddress(link, spenderName));
  step.label = `Allow ${official ? `the ${spenderName} contract` : spender} to spend ${formatAmount(approved, token)}`;
  if (!official) {
    findings.add(
      n,
      "spender",
      `Transaction ${n} lets ${spender} spend your ${token.symbol}, instead of ${officialLabel(link, spenderName)}.`,
    );
  }
  if (approved !== amount) {
    findings.add(
      n,
      "approvalAmount",
      `Transaction ${n} approves ${formatAmount(approved, token)} instead of ${formatAmount(amount, token)}.`,
    );
  }
  if (step.value !== 0n) {
    findings.add(n, "value", `Transaction ${n} sends native value with an approval, which needs none.`);
  }
}
