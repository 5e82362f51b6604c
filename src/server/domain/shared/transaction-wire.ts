import type { components } from "../../../../generated/schema.d.ts";
import type { BuiltTransaction } from "../../../chain/index.ts";

export type WireTransaction = components["schemas"]["Transaction"];

/**
 * The JSON form of an ethers v5 BigNumber, as the service sends native values: even-length hex,
 * `0x00` for zero.
 */
export function toBigNumberJson(value: bigint): { type: "BigNumber"; hex: string } {
  const digits = value.toString(16);
  return { type: "BigNumber", hex: `0x${digits.length % 2 === 0 ? digits : `0${digits}`}` };
}

/**
 * A built transaction in the value form an endpoint uses: `number` (0 for calls that move no
 * native currency), `bignumber` (ethers JSON) or `hex` (`0x0`).
 */
export function toWireTransaction(
  transaction: BuiltTransaction,
  form: "number" | "bignumber" | "hex",
): WireTransaction {
  const { to, data, value } = transaction;
  if (form === "bignumber") return { to, data, value: toBigNumberJson(value) };
  if (form === "hex") return { to, data, value: `0x${value.toString(16)}` };
  if (value !== 0n) throw new Error("a transaction carrying native value cannot use the number form");
  return { to, data, value: 0 };
}
