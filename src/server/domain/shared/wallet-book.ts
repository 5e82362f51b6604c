import { type Address, getAddress } from "viem";
import type { StoreOperations } from "../../store/store.ts";

export const checksummed = (address: string): Address => getAddress(address.toLowerCase());

/** The simulated balance of `currency` held by `address` in an account's wallet book, in base units; zero when never set. */
export async function balanceOf(
  tx: StoreOperations,
  accountId: string,
  address: string,
  currency: string,
): Promise<bigint> {
  const found = await tx.balances.get({ accountId, address, currency });
  return BigInt(found?.amount ?? "0");
}

/** The simulated allowance of `spender` over `address`'s `currency` in an account's wallet book, in base units; zero when never set. */
export async function allowanceOf(
  tx: StoreOperations,
  accountId: string,
  address: string,
  currency: string,
  spender: string,
): Promise<bigint> {
  const found = await tx.allowances.get({ accountId, address, currency, spender });
  return BigInt(found?.amount ?? "0");
}
