import { maxUint256 } from "viem";
import { ChainInputError } from "./errors.ts";

const decimalPattern = /^(\d+)(?:\.(\d+))?$/;

/** An unsigned decimal string as an integer and a power of ten: "12.50" -> 1250n, scale 2. */
export interface ScaledDecimal {
  units: bigint;
  scale: number;
}

/**
 * Reads an unsigned decimal string exactly (digits, an optional fraction, no sign or exponent);
 * `undefined` for anything else. The one decimal reader of the chain module, server and CLI.
 */
export function parseDecimal(value: string): ScaledDecimal | undefined {
  const match = decimalPattern.exec(value);
  if (!match) return undefined;
  const fraction = match[2] ?? "";
  return { units: BigInt((match[1] ?? "") + fraction), scale: fraction.length };
}

/** Whether a decimal string is zero, whatever its digits: "0", "0.00", "000". */
export function isZeroDecimal(value: string): boolean {
  return parseDecimal(value)?.units === 0n;
}

/**
 * Converts a decimal string (`12.50`) into base units of a token with `decimals` places, exactly.
 * Rejects, rather than rounds, an amount with more significant fractional digits than the token has.
 */
export function parseDecimalAmount(amount: string, decimals: number, field = "amount"): bigint {
  if (!Number.isInteger(decimals) || decimals < 0 || decimals > 77) {
    throw new ChainInputError(
      "decimals",
      "out_of_range",
      `decimals must be an integer from 0 to 77, got ${decimals}.`,
    );
  }
  const parsed = parseDecimal(amount);
  if (!parsed) {
    throw new ChainInputError(
      field,
      "invalid_format",
      `${field} must be a decimal number such as 12.50 (digits, an optional fraction, no sign or exponent).`,
    );
  }
  // Trailing zeros lose nothing, so "1.000000000" is accepted at 6 decimals.
  let { units: digits, scale } = parsed;
  while (scale > decimals && digits % 10n === 0n) {
    digits /= 10n;
    scale--;
  }
  if (scale > decimals) {
    throw new ChainInputError(
      field,
      "too_many_decimals",
      `${field} ${amount} has ${scale} fractional digits but the currency allows at most ${decimals}.`,
    );
  }
  const units = digits * 10n ** BigInt(decimals - scale);
  if (units > maxUint256) {
    throw new ChainInputError(field, "out_of_range", `${field} ${amount} is too large to pay on chain.`);
  }
  return units;
}

/**
 * The fee on `amount` for a percentage string (`2.5` means 2.5 %), rounded down, with integer
 * arithmetic only. No percentage, or `0`, means no fee.
 */
export function computeFeeAmount(amount: bigint, feePercentage: string | undefined): bigint {
  const field = "feePercentage";
  if (amount < 0n) {
    throw new ChainInputError("amount", "out_of_range", `amount must not be negative, got ${amount}.`);
  }
  if (feePercentage === undefined) return 0n;
  const parsed = parseDecimal(feePercentage);
  if (!parsed) {
    throw new ChainInputError(
      field,
      "invalid_format",
      `${field} must be a decimal percentage between 0 and 100 such as 2.5, got ${JSON.stringify(feePercentage)}.`,
    );
  }
  const scaledPercentage = parsed.units;
  const scale = 10n ** BigInt(parsed.scale);
  if (scaledPercentage > 100n * scale) {
    throw new ChainInputError(field, "out_of_range", `${field} must be at most 100, got ${feePercentage}.`);
  }
  return (amount * scaledPercentage) / (100n * scale);
}
