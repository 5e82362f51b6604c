import type { Address, Hex } from "viem";
import type { components } from "../../../../generated/schema.d.ts";
import { transactionValueToBigInt } from "../../../../src/wire/transaction-value.ts";
import type { TestAccount, TestChain, TestReceipt } from "../../../chain/support/test-chain.ts";

type WireTransaction = components["schemas"]["Transaction"];

/**
 * Sends the transactions a server answer holds, in the given order and exactly as given
 * (`to`, `data`, and `value` in whichever of its three wire forms), as an integrator's wallet
 * would. Stops at the first revert.
 */
export async function sendServerTransactions(
  chain: TestChain,
  from: TestAccount,
  transactions: WireTransaction[],
): Promise<TestReceipt[]> {
  const sent: TestReceipt[] = [];
  for (const [index, transaction] of transactions.entries()) {
    const value = transactionValueToBigInt(transaction.value, `transactions[${index}].value`);
    sent.push(
      await chain.send(from, { to: transaction.to as Address, data: transaction.data as Hex, value }),
    );
  }
  return sent;
}
