import { formatUnits } from "viem";
import {
  ChainInputError,
  parseDecimal,
  parseDecimalAmount,
  type ScaledDecimal,
} from "../../../chain/index.ts";

/** A decimal the spec's pattern already checked; anything else is a bug of the caller. */
function readCheckedDecimal(value: string): ScaledDecimal {
  const parsed = parseDecimal(value);
  if (!parsed) throw new Error(`not a decimal number: ${JSON.stringify(value)}`);
  return parsed;
}

/**
 * `amount × rate` in base units of a token with `decimals` places, rounded up so that the payee
 * never receives less than the converted amount.
 */
export function convertToBaseUnits(amount: string, rate: string, decimals: number): bigint {
  const a = readCheckedDecimal(amount);
  const r = readCheckedDecimal(rate);
  const numerator = a.units * r.units * 10n ** BigInt(decimals);
  const denominator = 10n ** BigInt(a.scale + r.scale);
  return (numerator + denominator - 1n) / denominator;
}

/** Base units as a human-readable decimal: 125000000n at 6 decimals -> "125". */
export function formatBaseUnits(value: bigint | string, decimals: number): string {
  return formatUnits(BigInt(value), decimals);
}

/** A percentage string as a fraction without floating-point drift in the digits: "2.5" -> 0.025. */
export function percentageToFraction(percentage: string): number {
  const { units, scale } = readCheckedDecimal(percentage);
  const digits = units.toString().padStart(scale + 3, "0");
  const cut = digits.length - (scale + 2);
  return Number(`${digits.slice(0, cut)}.${digits.slice(cut)}`);
}

export type AmountReading = { ok: true; units: bigint } | { ok: false; message: string };

/**
 * A decimal amount in base units, exactly, or the validation message saying why it cannot be
 * paid: too many decimals for the currency, or more than a uint256 holds.
 */
export function readAmount(amount: string, decimals: number, currency?: string): AmountReading {
  try {
    return { ok: true, units: parseDecimalAmount(amount, decimals) };
  } catch (error) {
    if (!(error instanceof ChainInputError)) throw error;
    const of = currency === undefined ? "" : ` for ${currency}`;
    switch (error.code) {
      case "too_many_decimals":
        return { ok: false, message: `must have at most ${decimals} decimals${of}, got "${amount}"` };
      case "out_of_range":
        return { ok: false, message: `is too large to pay on chain${of}, got "${amount}"` };
      default:
        return { ok: false, message: `must be a decimal number such as 12.50, got "${amount}"` };
    }
  }
}
