import type { TokenRecord } from "../../../chain/index.ts";
import type { DomainContext } from "./context.ts";
import { nativeCurrencyOf } from "./currencies.ts";
import { simulatedGasCostPerTransaction } from "./gas.ts";
import { balanceOf } from "./wallet-book.ts";

/** What a set of transactions takes from the payer: base units of each token, fees included. */
export interface Spending {
  token: TokenRecord;
  amount: bigint;
}

/**
 * Whether `wallet` holds what the transactions spend (every token's total) and the gas they cost
 * on top of any native spending, by the wallet book of `accountId` (the caller's). Both are true
 * when no wallet is named: the service cannot tell.
 */
export async function checkWalletFunds(
  ctx: DomainContext,
  accountId: string,
  wallet: string | undefined,
  network: string,
  spending: Spending[],
  transactionCount: number,
): Promise<{ hasEnoughBalance: boolean; hasEnoughGas: boolean }> {
  if (wallet === undefined) return { hasEnoughBalance: true, hasEnoughGas: true };
  const totals = new Map<string, { token: TokenRecord; amount: bigint }>();
  for (const { token, amount } of spending) {
    const total = totals.get(token.id) ?? { token, amount: 0n };
    totals.set(token.id, { token, amount: total.amount + amount });
  }
  const native = nativeCurrencyOf(network);
  const nativeBalance = native ? await balanceOf(ctx.store, accountId, wallet, native.id) : 0n;
  let nativeSpent = 0n;
  let hasEnoughBalance = true;
  for (const { token, amount } of totals.values()) {
    if (token.type === "ETH") nativeSpent += amount;
    else if ((await balanceOf(ctx.store, accountId, wallet, token.id)) < amount) hasEnoughBalance = false;
  }
  if (nativeBalance < nativeSpent) hasEnoughBalance = false;
  const gas = simulatedGasCostPerTransaction * BigInt(transactionCount);
  return { hasEnoughBalance, hasEnoughGas: nativeBalance >= nativeSpent + gas };
}
