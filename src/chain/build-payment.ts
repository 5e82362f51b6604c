import { type Address, encodeFunctionData } from "viem";
import { erc20FeeProxyAbi, ethereumFeeProxyAbi } from "./abis.ts";
import { type BuiltTransaction, buildApproval } from "./approval.ts";
import { type PaymentContracts, resolveContracts } from "./contracts.ts";
import {
  encodedAddress,
  normalizeAddress,
  normalizePaymentReference,
  requireNonNegative,
  requirePositive,
  requireSameNetwork,
  resolveFeeAddress,
} from "./inputs.ts";
import type { NetworkName } from "./networks.ts";
import type { TokenRecord } from "./tokens.ts";

/** What one payment needs: who is paid how much of which token, under which reference and fee. */
export interface PaymentInput {
  network: NetworkName;
  token: TokenRecord;
  payee: Address;
  /** Base units paid to the payee, fee excluded. */
  amount: bigint;
  paymentReference: `0x${string}`;
  /** Base units paid to `feeAddress` on top of `amount`. */
  feeAmount: bigint;
  feeAddress: Address | undefined;
  /** The payer's current allowance for the fee proxy; unknown (undefined) means approve. */
  currentAllowance?: bigint | undefined;
  /** Contracts to pay through instead of the network's official ones (local deployments, tests). */
  contracts?: PaymentContracts | undefined;
}

/** The transactions of one payment, in sending order. */
export interface PaymentTransactions {
  transactions: BuiltTransaction[];
  needsApproval: boolean;
  approvalTransactionIndex: number | null;
}

/**
 * The calldata of one payment. ERC-20: an approval of the ERC20FeeProxy for amount + fee unless the
 * known allowance covers it, then `transferFromWithReferenceAndFee`. Native: one
 * `transferWithReferenceAndFee` on the EthereumFeeProxy carrying amount + fee as value.
 */
export function buildPaymentTransactions(input: PaymentInput): PaymentTransactions {
  const contracts = resolveContracts(input.network, input.contracts);
  requireSameNetwork(input.token, input.network, "token");
  const payee = encodedAddress(input.payee, "payee");
  const amount = requirePositive(input.amount, "amount");
  const feeAmount = requireNonNegative(input.feeAmount, "feeAmount");
  const feeAddress = resolveFeeAddress(input.feeAddress, feeAmount, "feeAddress");
  const paymentReference = normalizePaymentReference(input.paymentReference, "paymentReference");

  if (input.token.type === "ETH") {
    const payment: BuiltTransaction = {
      to: normalizeAddress(contracts.ethereumFeeProxy, "contracts.ethereumFeeProxy"),
      data: encodeFunctionData({
        abi: ethereumFeeProxyAbi,
        functionName: "transferWithReferenceAndFee",
        args: [payee, paymentReference, feeAmount, feeAddress],
      }),
      value: amount + feeAmount,
    };
    return { transactions: [payment], needsApproval: false, approvalTransactionIndex: null };
  }

  const token = encodedAddress(input.token.address, "token.address");
  const proxy = normalizeAddress(contracts.erc20FeeProxy, "contracts.erc20FeeProxy");
  const required = amount + feeAmount;
  const needsApproval = input.currentAllowance === undefined || input.currentAllowance < required;
  const payment: BuiltTransaction = {
    to: proxy,
    data: encodeFunctionData({
      abi: erc20FeeProxyAbi,
      functionName: "transferFromWithReferenceAndFee",
      args: [token, payee, amount, paymentReference, feeAmount, feeAddress],
    }),
    value: 0n,
  };
  if (!needsApproval) return { transactions: [payment], needsApproval, approvalTransactionIndex: null };
  const approval = buildApproval({ token, spender: proxy, amount: required });
  return { transactions: [approval, payment], needsApproval, approvalTransactionIndex: 0 };
}
