/** Half of what is left to pay (`expected - paid`), exactly, as a decimal string without trailing zeros. */
export function halfOfRemaining(expected: string, paid: string): string {
  const scale = Math.max(fractionDigits(expected), fractionDigits(paid));
  const remaining = toScaled(expected, scale) - toScaled(paid, scale);
  if (remaining <= 0n) return "0";
  // One more decimal place makes the half exact: remaining * 10 / 2 = remaining * 5.
  return fromScaled(remaining * 5n, scale + 1);
}

function fractionDigits(value: string): number {
  return value.split(".")[1]?.length ?? 0;
}

function toScaled(value: string, scale: number): bigint {
  const [whole = "0", fraction = ""] = value.split(".");
  return BigInt(whole + fraction.padEnd(scale, "0"));
}

function fromScaled(value: bigint, scale: number): string {
  const digits = value.toString().padStart(scale + 1, "0");
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, "");
  return fraction === "" ? whole : `${whole}.${fraction}`;
}
