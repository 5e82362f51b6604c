import { isAddress, isHex } from "viem";
import type { components } from "../../generated/schema.d.ts";
import { isRecord } from "../wire/is-record.ts";
import { describeValue, InvalidValueError } from "../wire/payreq-error.ts";
import { transactionValueToBigInt } from "../wire/transaction-value.ts";

type Transaction = components["schemas"]["Transaction"];

/** The answer of `POST /v2/payouts/batch`, in either key form. */
export type BatchPayout = components["schemas"]["BatchPayout"];

/** A batch payout in one shape: the transactions to send, approvals first, each list in order. */
export interface NormalisedBatchPayout {
  /** ERC-20 approvals of the batch contract; empty when none is needed. */
  approvals: Transaction[];
  /** The `batchPayments` calls: ERC-20 then native in the split form, or the single one. */
  payments: Transaction[];
}

const splitKeys = ["ERC20BatchPaymentTransaction", "ETHBatchPaymentTransaction"] as const;
const singleKey = "batchPaymentTransaction";

/**
 * Reads a batch payout answer in either key form (split `ERC20BatchPaymentTransaction` /
 * `ETHBatchPaymentTransaction`, or a single `batchPaymentTransaction`), with or without
 * `ERC20ApprovalTransactions`, and checks every transaction. Throws `InvalidValueError` naming
 * the field when the answer has neither form, both forms, or a malformed transaction.
 */
export function normaliseBatchPayout(response: BatchPayout | unknown): NormalisedBatchPayout {
  if (!isRecord(response)) throw new InvalidValueError("batch payout", "an object", response);
  const approvals = readApprovals(response.ERC20ApprovalTransactions);
  const split = splitKeys.filter((key) => response[key] !== undefined);
  const hasSingle = response[singleKey] !== undefined;
  if (hasSingle && split.length > 0) {
    throw new InvalidValueError(
      "batch payout",
      `one key form, either ${splitKeys.join(" / ")} or ${singleKey}`,
      response,
      {
        receivedDescription: `both ${singleKey} and ${split.join(", ")}`,
        details: "Sending both could pay the batch twice; the answer is refused instead.",
      },
    );
  }
  const keys = hasSingle ? [singleKey] : split;
  if (keys.length === 0) {
    throw new InvalidValueError("batch payout", `${splitKeys.join(", ")} or ${singleKey}`, response, {
      receivedDescription: `an object with the keys ${describeValue(Object.keys(response))}`,
    });
  }
  return { approvals, payments: keys.map((key) => readTransaction(response[key], key)) };
}

function readApprovals(value: unknown): Transaction[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw new InvalidValueError("ERC20ApprovalTransactions", "an array", value);
  return value.map((item, index) => readTransaction(item, `ERC20ApprovalTransactions[${index}]`));
}

function readTransaction(value: unknown, field: string): Transaction {
  if (!isRecord(value)) throw new InvalidValueError(field, "a transaction {to, data, value}", value);
  const { to, data } = value;
  // Any letter case: the checksum is not checked, only the form.
  if (typeof to !== "string" || !isAddress(to, { strict: false })) {
    throw new InvalidValueError(`${field}.to`, "an EVM address (0x and 40 hex digits)", to);
  }
  if (typeof data !== "string" || !isHex(data) || data.length % 2 !== 0) {
    throw new InvalidValueError(`${field}.data`, "hex calldata (0x and an even number of hex digits)", data);
  }
  transactionValueToBigInt(value.value as Transaction["value"], `${field}.value`);
  return value as Transaction;
}
