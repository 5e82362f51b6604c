import { formatUnits } from "viem";
import { parseDecimal, type ScaledDecimal } from "../../chain/index.ts";

/** Half of what is left to pay (`expected - paid`), exactly, as a decimal string without trailing zeros. */
export function halfOfRemaining(expected: string, paid: string): string {
  const owed = readDecimal(expected);
  const done = readDecimal(paid);
  // One more decimal place than either amount has makes the half exact.
  const scale = Math.max(owed.scale, done.scale) + 1;
  const remaining = atScale(owed, scale) - atScale(done, scale);
  return remaining <= 0n ? "0" : formatUnits(remaining / 2n, scale);
}

/** The server's amounts are decimal strings; anything else is a broken answer. */
function readDecimal(value: string): ScaledDecimal {
  const parsed = parseDecimal(value);
  if (!parsed)
    throw new Error(`the server answered an amount that is not a decimal: ${JSON.stringify(value)}`);
  return parsed;
}

function atScale(value: ScaledDecimal, scale: number): bigint {
  return value.units * 10n ** BigInt(scale - value.scale);
}
