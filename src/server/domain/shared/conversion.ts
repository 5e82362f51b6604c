import { parseDecimal, type TokenRecord } from "../../../chain/index.ts";
import { convertToBaseUnits } from "./amounts.ts";

/**
 * The sandbox price table. The sandbox has no price feeds: it prices every currency it lists at
 * fixed, round values, so that conversions are exact and tests can predict them. Each asset is a
 * family of tokens worth the same; `fiatRates` gives the units of each asset one unit of a fiat
 * currency buys (1 USD = 1 stablecoin = 0.0005 ETH = 2 POL; 1 EUR = 1.25 USD).
 */
const assetOfSymbol: Readonly<Record<string, "usd-stablecoin" | "ether" | "pol">> = {
  USDC: "usd-stablecoin",
  USDCn: "usd-stablecoin",
  USDT: "usd-stablecoin",
  DAI: "usd-stablecoin",
  // The service's test tokens stand for dollars on sepolia (FAU pays USD invoices there).
  FAU: "usd-stablecoin",
  fUSDC: "usd-stablecoin",
  fUSDT: "usd-stablecoin",
  ETH: "ether",
  WETH: "ether",
  "ETH-base": "ether",
  "ETH-optimism": "ether",
  "ETH-sepolia": "ether",
  AETH: "ether",
  MATIC: "pol",
};

export const fiatRates: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  USD: { "usd-stablecoin": "1", ether: "0.0005", pol: "2" },
  EUR: { "usd-stablecoin": "1.25", ether: "0.000625", pol: "2.5" },
};

/** Units of `token` one unit of `fiat` buys, read as own properties only; undefined when unpriced. */
export function rateOf(fiat: string, token: TokenRecord): string | undefined {
  const rates = Object.hasOwn(fiatRates, fiat) ? fiatRates[fiat] : undefined;
  const asset = Object.hasOwn(assetOfSymbol, token.symbol) ? assetOfSymbol[token.symbol] : undefined;
  return rates && asset && Object.hasOwn(rates, asset) ? rates[asset] : undefined;
}

/** Whether one unit of `token` is worth one unit of `fiat` in the sandbox price table. */
export function isAtParWith(fiat: string, token: TokenRecord): boolean {
  return rateOf(fiat, token) === "1";
}

/** Whether `code` is a fiat currency of the price table (upper case, as stored). */
export function isPricedFiat(code: string): boolean {
  return Object.hasOwn(fiatRates, code);
}

/** USD values are computed at this many decimals. */
export const usdDecimals = 18;

/**
 * What `units` base units of `token` are worth in USD at the sandbox rate, in base units of
 * `usdDecimals` decimals (rounded down); undefined for a token the price table does not price.
 */
export function usdValueOf(units: bigint, token: TokenRecord): bigint | undefined {
  const rate = parseDecimal(rateOf("USD", token) ?? "");
  if (!rate || rate.units === 0n) return undefined;
  // units / 10^decimals tokens, at rate.units / 10^rate.scale tokens per dollar.
  return (units * 10n ** BigInt(usdDecimals + rate.scale)) / (10n ** BigInt(token.decimals) * rate.units);
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
  const fiat = invoiceCurrency.toUpperCase();
  const rate = rateOf(fiat, token);
  if (rate !== undefined) return { ok: true, baseUnits: convertToBaseUnits(amount, rate, token.decimals) };
  return {
    ok: false,
    message: isPricedFiat(fiat)
      ? `cannot be paid in ${token.id}: the sandbox price table has no price for it`
      : `cannot be paid in ${token.id}: the sandbox converts only ${Object.keys(fiatRates).join(" and ")} invoices, or a request invoiced in the payment currency itself`,
  };
}
