import { type Address, decodeFunctionResult, encodeFunctionData, erc20Abi } from "viem";
import type { TestChain } from "./test-chain.ts";

/** The ERC-20 balance of `account` at `token`, read with an `eth_call` on the test chain. */
export async function erc20BalanceOf(chain: TestChain, token: Address, account: Address): Promise<bigint> {
  const data = encodeFunctionData({ abi: erc20Abi, functionName: "balanceOf", args: [account] });
  return decodeFunctionResult({
    abi: erc20Abi,
    functionName: "balanceOf",
    data: await chain.call(token, data),
  });
}

/** How much of `token` `spender` may still pull from `holder`, read on the test chain. */
export async function erc20Allowance(
  chain: TestChain,
  token: Address,
  holder: Address,
  spender: Address,
): Promise<bigint> {
  const data = encodeFunctionData({ abi: erc20Abi, functionName: "allowance", args: [holder, spender] });
  return decodeFunctionResult({
    abi: erc20Abi,
    functionName: "allowance",
    data: await chain.call(token, data),
  });
}
