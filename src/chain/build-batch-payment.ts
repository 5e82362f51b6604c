import { type Address, encodeFunctionData, zeroAddress } from "viem";
import { batchConversionPaymentsAbi } from "./abis.ts";
import { type BuiltTransaction, buildApproval } from "./approval.ts";
import { type BatchRequestDetail, batchPaymentNetworkIds } from "./batch-request-details.ts";
import { type PaymentContracts, resolveContracts } from "./contracts.ts";
import { ChainInputError } from "./errors.ts";
import {
  encodedAddress,
  normalizeAddress,
  normalizePaymentReference,
  requireNonNegative,
  requirePositive,
  requireSameNetwork,
} from "./inputs.ts";
import type { NetworkName } from "./networks.ts";
import type { TokenRecord } from "./tokens.ts";

/** One payment of a batch; the batch's single `feeAddress` receives every fee. */
export interface BatchPaymentItem {
  token: TokenRecord;
  payee: Address;
  amount: bigint;
  paymentReference: `0x${string}`;
  feeAmount: bigint;
}

/** What a batch needs: its payments, the fee recipient, and what is known of the payer's allowances. */
export interface BatchPaymentInput {
  network: NetworkName;
  payments: BatchPaymentItem[];
  feeAddress: Address;
  /** The payer's allowance for the batch contract, by token address; a missing token means approve. */
  currentAllowances?: Record<Address, bigint> | undefined;
  /**
   * The batch contract's own fee in basis points (its `batchFee()`, at most 200). The official
   * deployments are configured with 0, the value the package's admin scripts set.
   */
  batchFeeBasisPoints?: number | undefined;
  /** Contracts to pay through instead of the network's official ones (local deployments, tests). */
  contracts?: PaymentContracts | undefined;
}

/** The transactions of a batch: approvals first, then the one `batchPayments` call. */
export interface BatchPaymentTransactions {
  approvals: BuiltTransaction[];
  batchPayment: BuiltTransaction;
  hasErc20: boolean;
  hasNative: boolean;
}

const feeDenominator = 10_000n;

interface TokenTotal {
  token: Address;
  amounts: bigint;
  amountsAndFees: bigint;
}

function readBatchFeeBasisPoints(value: number | undefined): bigint {
  if (value === undefined) return 0n;
  if (!Number.isInteger(value) || value < 0 || value > 200) {
    throw new ChainInputError(
      "batchFeeBasisPoints",
      "out_of_range",
      `batchFeeBasisPoints must be an integer from 0 to 200, got ${value}.`,
    );
  }
  return BigInt(value);
}

function readAllowances(allowances: Record<Address, bigint> | undefined): Map<string, bigint> {
  return new Map(Object.entries(allowances ?? {}).map(([token, amount]) => [token.toLowerCase(), amount]));
}

/**
 * The calldata of a batch through BatchConversionPayments.batchPayments, mirroring the contract:
 * per ERC-20 token it pulls sum(amount + fee) plus a batch fee of sum(amount) × batchFee / 10000
 * from the payer, so each token is approved for that total; native payments need
 * sum(amount + fee) plus the same batch fee on the native amounts as value. `pathsToUSD` is empty,
 * so no USD cap applies to the batch fee.
 */
export function buildBatchPaymentTransactions(input: BatchPaymentInput): BatchPaymentTransactions {
  if (input.payments.length === 0) {
    throw new ChainInputError("payments", "empty_batch", "payments must hold at least one payment.");
  }
  const contracts = resolveContracts(input.network, input.contracts);
  const batchContract = normalizeAddress(
    contracts.batchConversionPayments,
    "contracts.batchConversionPayments",
  );
  const feeAddress = encodedAddress(input.feeAddress, "feeAddress");
  const batchFee = readBatchFeeBasisPoints(input.batchFeeBasisPoints);

  const erc20Details: BatchRequestDetail[] = [];
  const nativeDetails: BatchRequestDetail[] = [];
  const tokenTotals = new Map<string, TokenTotal>();
  let nativeAmounts = 0n;
  let nativeAmountsAndFees = 0n;
  let anyFee = false;

  input.payments.forEach((payment, index) => {
    const at = `payments[${index}]`;
    requireSameNetwork(payment.token, input.network, `${at}.token`);
    const amount = requirePositive(payment.amount, `${at}.amount`);
    const feeAmount = requireNonNegative(payment.feeAmount, `${at}.feeAmount`);
    anyFee ||= feeAmount > 0n;
    const detail = {
      recipient: encodedAddress(payment.payee, `${at}.payee`),
      requestAmount: amount,
      paymentReference: normalizePaymentReference(payment.paymentReference, `${at}.paymentReference`),
      feeAmount,
      maxToSpend: 0n,
      maxRateTimespan: 0n,
    };
    if (payment.token.type === "ETH") {
      nativeDetails.push({ path: [], ...detail });
      nativeAmounts += amount;
      nativeAmountsAndFees += amount + feeAmount;
      return;
    }
    const token = encodedAddress(payment.token.address, `${at}.token.address`);
    erc20Details.push({ path: [token], ...detail });
    const total = tokenTotals.get(token) ?? { token, amounts: 0n, amountsAndFees: 0n };
    total.amounts += amount;
    total.amountsAndFees += amount + feeAmount;
    tokenTotals.set(token, total);
  });

  const hasErc20 = erc20Details.length > 0;
  const hasNative = nativeDetails.length > 0;
  // The contract sends the batch fee to feeAddress: OpenZeppelin tokens revert on the zero
  // address, and native coins sent there are burnt.
  if (feeAddress === zeroAddress && (hasErc20 || anyFee || batchFee > 0n)) {
    throw new ChainInputError(
      "feeAddress",
      "missing_fee_address",
      "feeAddress must not be the zero address for a batch with ERC-20 payments or fees.",
    );
  }

  const allowances = readAllowances(input.currentAllowances);
  const approvals: BuiltTransaction[] = [];
  for (const [key, total] of tokenTotals) {
    const required = total.amountsAndFees + (total.amounts * batchFee) / feeDenominator;
    const known = allowances.get(key);
    if (known === undefined || known < required) {
      approvals.push(buildApproval({ token: total.token, spender: batchContract, amount: required }));
    }
  }

  const metaDetails: { paymentNetworkId: bigint; requestDetails: BatchRequestDetail[] }[] = [];
  if (hasErc20) {
    const paymentNetworkId =
      tokenTotals.size === 1 ? batchPaymentNetworkIds.singleErc20 : batchPaymentNetworkIds.multiErc20;
    metaDetails.push({ paymentNetworkId, requestDetails: erc20Details });
  }
  if (hasNative) {
    metaDetails.push({ paymentNetworkId: batchPaymentNetworkIds.native, requestDetails: nativeDetails });
  }

  const batchPayment: BuiltTransaction = {
    to: batchContract,
    data: encodeFunctionData({
      abi: batchConversionPaymentsAbi,
      functionName: "batchPayments",
      args: [metaDetails, [], feeAddress],
    }),
    value: nativeAmountsAndFees + (nativeAmounts * batchFee) / feeDenominator,
  };
  return { approvals, batchPayment, hasErc20, hasNative };
}
