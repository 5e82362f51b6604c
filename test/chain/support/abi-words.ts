import type { Hex } from "viem";

/** A 32-byte ABI word holding an address or an unsigned integer, left-padded, without `0x`. */
export function word(value: Hex | bigint | number): string {
  const hex = typeof value === "string" ? value.slice(2) : value.toString(16);
  return hex.toLowerCase().padStart(64, "0");
}

/** The ABI tail of a short `bytes` value: its length word, then its bytes right-padded to 32. */
export function bytesTail(value: Hex): string {
  const hex = value.slice(2).toLowerCase();
  return word(hex.length / 2) + hex.padEnd(Math.ceil(hex.length / 64) * 64, "0");
}
