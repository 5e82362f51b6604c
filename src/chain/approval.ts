import { type Address, encodeFunctionData, type Hex } from "viem";
import { erc20ApproveAbi } from "./abis.ts";
import { encodedAddress, normalizeAddress } from "./inputs.ts";

/** One transaction for the payer's wallet to send: target, calldata and native value in wei. */
export interface BuiltTransaction {
  to: Address;
  data: Hex;
  value: bigint;
}

/** `approve(spender, amount)` on an ERC-20 token. */
export function buildApproval(input: { token: Address; spender: Address; amount: bigint }): BuiltTransaction {
  return {
    to: normalizeAddress(input.token, "token"),
    data: encodeFunctionData({
      abi: erc20ApproveAbi,
      functionName: "approve",
      args: [encodedAddress(input.spender, "spender"), input.amount],
    }),
    value: 0n,
  };
}

/** `approve(spender, 0)`: clears an allowance, as USDT requires before setting a new non-zero one. */
export function buildAllowanceReset(input: { token: Address; spender: Address }): BuiltTransaction {
  return buildApproval({ ...input, amount: 0n });
}
