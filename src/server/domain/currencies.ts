import { findToken, listTokens, type TokenRecord, tokenTable } from "../../chain/index.ts";
import type { OperationInput } from "../operations/operation-types.ts";
import { invalidField, notFound } from "../problems.ts";
import type { DomainContext } from "./shared/context.ts";

type CurrencyFilters = OperationInput<"listCurrencies">["query"];

function describeFilters(filters: CurrencyFilters): string {
  const parts = [
    filters.id === undefined ? undefined : `id '${filters.id}'`,
    filters.symbol === undefined ? undefined : `symbol '${filters.symbol}'`,
    filters.network === undefined ? undefined : `on network '${filters.network}'`,
  ].filter(Boolean);
  return parts.join(" ");
}

/**
 * The currencies matching the filters: a list, or one currency when `id` or `firstOnly=true` is
 * given. Nothing matching answers 404, as the service does.
 */
export function listCurrencies(
  _ctx: DomainContext,
  { query: filters }: OperationInput<"listCurrencies">,
): TokenRecord[] | TokenRecord {
  const firstOnly = filters.firstOnly === "true";
  if (firstOnly && (filters.network === undefined || filters.symbol === undefined)) {
    throw invalidField("/query/firstOnly", "can only be used together with both network and symbol");
  }
  let matches = listTokens({ network: filters.network, symbol: filters.symbol });
  if (filters.id !== undefined) {
    const wanted = filters.id.toLowerCase();
    matches = matches.filter((token) => token.id.toLowerCase() === wanted);
  }
  const [first] = matches;
  if (!first) throw notFound(`No currency matches ${describeFilters(filters)}.`);
  return firstOnly || filters.id !== undefined ? first : matches;
}

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
