import { maxUint256 } from "viem";
import { ChainInputError } from "./errors.ts";

const decimalPattern = /^(\d+)(?:\.(\d+))?$/;

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
  const match = decimalPattern.exec(amount);
  if (!match) {
    throw new ChainInputError(
      field,
      "invalid_format",
      `${field} must be a decimal number such as 12.50 (digits, an optional fraction, no sign or exponent).`,
    );
  }
  const whole = match[1] ?? "";
  // Trailing zeros lose nothing, so "1.000000000" is accepted at 6 decimals.
  const fraction = (match[2] ?? "").replace(/0+$/, "");
  if (fraction.length > decimals) {
    throw new ChainInputError(
      field,
      "too_many_decimals",
      `${field} ${amount} has ${fraction.length} fractional digits but the currency allows at most ${decimals}.`,
    );
  }
  const units = BigInt(whole + fraction.padEnd(decimals, "0"));
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
  const match = decimalPattern.exec(feePercentage);
  if (!match) {
    throw new ChainInputError(
      field,
      "invalid_format",
      `${field} must be a decimal percentage between 0 and 100 such as 2.5, got ${JSON.stringify(feePercentage)}.`,
    );
  }
  const fraction = match[2] ?? "";
  const scaledPercentage = BigInt((match[1] ?? "") + fraction);
  const scale = 10n ** BigInt(fraction.length);
  if (scaledPercentage > 100n * scale) {
    throw new ChainInputError(field, "out_of_range", `${field} must be at most 100, got ${feePercentage}.`);
  }
  return (amount * scaledPercentage) / (100n * scale);
}
