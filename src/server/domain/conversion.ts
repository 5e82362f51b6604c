import { type TokenRecord, tokenTable } from "../../chain/index.ts";
import type { OperationInput } from "../operations/operation-types.ts";
import { invalidField, notFound } from "../problems.ts";
import { convertToBaseUnits } from "./amounts.ts";
import type { DomainContext } from "./context.ts";
import { findCurrency } from "./currencies.ts";

/**
 * Units of each token one unit of a fiat currency buys. The sandbox has no price feeds: it
 * converts fiat only to the stablecoins pegged to it, at par.
 */
export const fiatRates: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  USD: { USDC: "1", USDT: "1", DAI: "1" },
};

/** The rates of a fiat code, read as an own property only. */
function ratesOf(fiat: string): Readonly<Record<string, string>> | undefined {
  return Object.hasOwn(fiatRates, fiat) ? fiatRates[fiat] : undefined;
}

export type ConversionResult = { ok: true; baseUnits: bigint } | { ok: false; message: string };

/**
 * What a request of `amount` in `invoiceCurrency` costs in base units of `token`: the amount
 * itself when the request is invoiced in the token, or its fiat value at the sandbox rate.
 */
export function convertInvoiceAmount(
  amount: string,
  invoiceCurrency: string,
  token: TokenRecord,
): ConversionResult {
  if (invoiceCurrency.toLowerCase() === token.id.toLowerCase()) {
    return { ok: true, baseUnits: convertToBaseUnits(amount, "1", token.decimals) };
  }
  const rate = ratesOf(invoiceCurrency)?.[token.symbol];
  if (rate !== undefined && Object.hasOwn(ratesOf(invoiceCurrency) ?? {}, token.symbol))
    return { ok: true, baseUnits: convertToBaseUnits(amount, rate, token.decimals) };
  return {
    ok: false,
    message: `cannot be paid in ${token.id}: the sandbox converts ${invoiceCurrency} only to ${payableWith(invoiceCurrency)}`,
  };
}

function payableWith(invoiceCurrency: string): string {
  const symbols = Object.keys(ratesOf(invoiceCurrency) ?? {});
  return symbols.length > 0 ? `${symbols.join(", ")} (or the same currency id)` : "the same currency id";
}

/**
 * The currencies a request invoiced in `currencyId` can be paid with, on `network` or on any of
 * `networks` (one or the other). 404 for an unknown currency.
 */
export function listConversionRoutes(_ctx: DomainContext, input: OperationInput<"listConversionRoutes">) {
  const { currencyId } = input.path;
  const { network, networks } = input.query;
  if (network !== undefined && networks !== undefined) {
    throw invalidField("/query/networks", "cannot be sent together with network; send one or the other");
  }
  const rates = ratesOf(currencyId);
  let routes: TokenRecord[];
  if (rates) routes = tokenTable.filter((token) => Object.hasOwn(rates, token.symbol));
  else {
    const token = findCurrency(currencyId);
    if (!token) throw notFound(`No currency has the id or fiat code '${currencyId}'.`);
    routes = [token];
  }
  if (network !== undefined) {
    return { currencyId, network, conversionRoutes: routes.filter((t) => t.network === network) };
  }
  if (networks !== undefined) {
    const wanted = networks.split(",");
    return {
      currencyId,
      networks: wanted,
      conversionRoutes: routes.filter((t) => wanted.includes(t.network)),
    };
  }
  return { currencyId, network: null, conversionRoutes: routes };
}
