import type { components } from "../../generated/schema.d.ts";
import { isRecord } from "./is-record.ts";
import { InvalidValueError } from "./payreq-error.ts";

type TransactionValue = components["schemas"]["TransactionValue"];

const hexQuantity = /^0x[0-9a-fA-F]+$/;
const expectedForms = 'a non-negative safe integer, a 0x hex string or {type: "BigNumber", hex}';

/**
 * Reads a transaction's `value` in wei, in any of the service's three forms: the number `0`
 * (or another non-negative safe integer), a hex string such as `0x2386f26fc10000`, or the
 * ethers v5 JSON form `{type: "BigNumber", hex: "0x2386f26fc10000"}`.
 *
 * @param field names the value in the error thrown for any other form.
 */
export function transactionValueToBigInt(value: TransactionValue, field = "value"): bigint {
  const input: unknown = value;
  if (typeof input === "number") {
    if (Number.isSafeInteger(input) && input >= 0) return BigInt(input);
    throw new InvalidValueError(field, expectedForms, input, {
      details: "A number must be a non-negative integer no larger than Number.MAX_SAFE_INTEGER to be exact.",
    });
  }
  if (typeof input === "string") {
    if (hexQuantity.test(input)) return BigInt(input);
    throw new InvalidValueError(field, expectedForms, input);
  }
  if (isRecord(input) && input.type === "BigNumber") {
    const { hex } = input;
    if (typeof hex === "string" && hexQuantity.test(hex)) return BigInt(hex);
    throw new InvalidValueError(`${field}.hex`, "a 0x hex string", hex);
  }
  throw new InvalidValueError(field, expectedForms, input);
}
