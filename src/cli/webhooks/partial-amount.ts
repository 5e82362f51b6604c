import { formatUnits, parseUnits } from "viem";

/** Half of what is left to pay (`expected - paid`), exactly, as a decimal string without trailing zeros. */
export function halfOfRemaining(expected: string, paid: string): string {
  // One more decimal place than either amount has makes the half exact.
  const scale = Math.max(fractionDigits(expected), fractionDigits(paid)) + 1;
  const remaining = parseUnits(expected, scale) - parseUnits(paid, scale);
  return remaining <= 0n ? "0" : formatUnits(remaining / 2n, scale);
}

function fractionDigits(value: string): number {
  return value.split(".")[1]?.length ?? 0;
}
