import { listTokens, type TokenRecord } from "../../../chain/index.ts";
import { invalidField, notFound } from "../../problems.ts";
import type { OperationInput, StatelessContext } from "../shared/operation-types.ts";

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
  _ctx: StatelessContext,
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

// The v2 paths of the currency operations: one contract and one currency table for both paths,
// so each v2 operation answers exactly what its v1 twin answers. The inputs are spread because
// TypeScript compares OperationInput<K> by its operationId, not by the (identical) parameters.

/** `GET /v2/currencies`: what `GET /v1/currencies` answers for the same filters. */
export function listCurrenciesV2(ctx: StatelessContext, input: OperationInput<"listCurrenciesV2">) {
  return listCurrencies(ctx, { ...input });
}
