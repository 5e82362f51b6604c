import { notFound, type ValidationIssue, validationFailed } from "../../problems.ts";
import type { StoreOperations } from "../../store/store.ts";
import { formatBaseUnits, readAmount } from "../shared/amounts.ts";
import type { DomainContext } from "../shared/context.ts";
import { findCurrency, requireCurrency } from "../shared/currencies.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { checksummed } from "../shared/wallet-book.ts";
import type { Schemas } from "../shared/wire-types.ts";

/** Every balance and allowance of one address (in any letter case) in one account's wallet book. */
async function readWallet(store: StoreOperations, accountId: string, address: string) {
  const [balances, allowances] = [
    await store.balances.find("wallet", { accountId, address }),
    await store.allowances.find("wallet", { accountId, address }),
  ];
  return { balances: balances.items, allowances: allowances.items };
}

function toWire(address: string, wallet: Awaited<ReturnType<typeof readWallet>>): Schemas["SandboxWallet"] {
  const decimalsOf = (currency: string) => requireCurrency(currency, `wallet ${address}`).decimals;
  return {
    address: checksummed(address),
    balances: wallet.balances.map((b) => ({
      currency: b.currency,
      amount: formatBaseUnits(b.amount, decimalsOf(b.currency)),
    })),
    allowances: wallet.allowances.map((a) => ({
      currency: a.currency,
      spender: a.spender,
      amount: formatBaseUnits(a.amount, decimalsOf(a.currency)),
    })),
  };
}

/** Reads a wallet of the caller's account's book; 404 when nothing was ever set for it. */
export async function getSandboxWallet(
  ctx: DomainContext,
  { principal, path: { address } }: OperationInput<"getSandboxWallet">,
): Promise<Schemas["SandboxWallet"]> {
  const wallet = await readWallet(ctx.store, principal.accountId, address);
  if (wallet.balances.length === 0 && wallet.allowances.length === 0) {
    throw notFound(`Nothing was ever set for wallet ${address}; every amount of it is zero.`);
  }
  return toWire(address, wallet);
}

function toBaseUnits(amount: string, decimals: number, path: string, issues: ValidationIssue[]): bigint {
  const reading = readAmount(amount, decimals, "this currency");
  if (reading.ok) return reading.units;
  issues.push({ path, message: reading.message });
  return 0n;
}

/**
 * Sets the listed balances and allowances of a wallet in the caller's account's book; every entry
 * is checked before any is kept. Other accounts' books are untouched.
 */
export async function setSandboxWallet(
  ctx: DomainContext,
  { principal: { accountId }, body: update }: OperationInput<"setSandboxWallet">,
): Promise<Schemas["SandboxWallet"]> {
  const address = checksummed(update.address);
  const issues: ValidationIssue[] = [];
  const balances = (update.balances ?? []).map((entry, index) => {
    const at = `/body/balances/${index}`;
    const token = findCurrency(entry.currency);
    if (!token) {
      issues.push({
        path: `${at}/currency`,
        message: `is not a currency the sandbox knows, got "${entry.currency}"`,
      });
      return undefined;
    }
    const amount = toBaseUnits(entry.amount, token.decimals, `${at}/amount`, issues);
    return { accountId, address, currency: token.id, amount: amount.toString() };
  });
  const allowances = (update.allowances ?? []).map((entry, index) => {
    const at = `/body/allowances/${index}`;
    const token = findCurrency(entry.currency);
    if (token?.type !== "ERC20") {
      issues.push({
        path: `${at}/currency`,
        message: token
          ? `is a native currency, which has no allowance; got "${entry.currency}"`
          : `is not a currency the sandbox knows, got "${entry.currency}"`,
      });
      return undefined;
    }
    const amount = toBaseUnits(entry.amount, token.decimals, `${at}/amount`, issues);
    return {
      accountId,
      address,
      currency: token.id,
      spender: checksummed(entry.spender),
      amount: amount.toString(),
    };
  });
  if (issues.length > 0) throw validationFailed(issues);

  return ctx.store.withTransaction(async (tx) => {
    for (const balance of balances) if (balance) await tx.balances.put(balance);
    for (const allowance of allowances) if (allowance) await tx.allowances.put(allowance);
    return toWire(address, await readWallet(tx, accountId, address));
  });
}
