import { findToken, type TokenRecord, tokenTable } from "../../../chain/index.ts";

/** The currency with this id; `undefined` when the sandbox does not know it. */
export function findCurrency(currencyId: string): TokenRecord | undefined {
  return findToken(currencyId);
}

/**
 * The currency a stored record names. Records are only stored with currencies checked on the way
 * in, so a missing one is a bug of the server, not a problem of the caller.
 * `owner` says whose currency it is, as in "request 01J…".
 */
export function requireCurrency(currencyId: string, owner: string): TokenRecord {
  const token = findToken(currencyId);
  if (!token) throw new Error(`${owner} names unknown currency ${currencyId}`);
  return token;
}

/** The native coin of a network (the currency of type ETH), which pays the gas. */
export function nativeCurrencyOf(network: string): TokenRecord | undefined {
  return tokenTable.find((token) => token.network === network && token.type === "ETH");
}
