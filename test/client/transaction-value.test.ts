import { describe, expect, it } from "vitest";
import { InvalidValueError, type TransactionValue, transactionValueToBigInt } from "../../src/index.ts";
import { specExample } from "./fetch-stub.ts";

describe("transactionValueToBigInt", () => {
  it.each<[string, TransactionValue, bigint]>([
    ["the number 0 of ERC-20 calls", 0, 0n],
    ["a safe integer", 1_000_000, 1_000_000n],
    ["the largest safe integer", Number.MAX_SAFE_INTEGER, 9_007_199_254_740_991n],
    ["the hex string 0x0", "0x0", 0n],
    ["a hex string", "0x2386f26fc10000", 10_000_000_000_000_000n],
    ["an upper-case hex string", "0x2386F26FC10000", 10_000_000_000_000_000n],
    ["an ethers BigNumber", { type: "BigNumber", hex: "0x2386f26fc10000" }, 10_000_000_000_000_000n],
    ["an ethers BigNumber of zero", { type: "BigNumber", hex: "0x00" }, 0n],
    ["a value above 2^53", { type: "BigNumber", hex: "0xde0b6b3a7640000000" }, 0xde0b6b3a7640000000n],
  ])("reads %s", (_name, value, expected) => {
    expect(transactionValueToBigInt(value)).toBe(expected);
  });

  it("reads the value of the spec's native pay calldata example", () => {
    const example = specExample("PayCalldataNative") as { transactions: [{ value: TransactionValue }] };
    expect(transactionValueToBigInt(example.transactions[0].value)).toBe(1_000_000_000_000_000n);
  });

  it.each<[string, unknown, string]>([
    [
      "a fraction",
      1.5,
      'Invalid value: expected a non-negative safe integer, a 0x hex string or {type: "BigNumber", hex}, got 1.5.',
    ],
    [
      "a negative number",
      -1,
      'Invalid value: expected a non-negative safe integer, a 0x hex string or {type: "BigNumber", hex}, got -1.',
    ],
    [
      "an unsafe integer",
      2 ** 53,
      'Invalid value: expected a non-negative safe integer, a 0x hex string or {type: "BigNumber", hex}, got 9007199254740992.',
    ],
    [
      "a decimal string",
      "1000",
      'Invalid value: expected a non-negative safe integer, a 0x hex string or {type: "BigNumber", hex}, got "1000".',
    ],
    [
      "a bare 0x",
      "0x",
      'Invalid value: expected a non-negative safe integer, a 0x hex string or {type: "BigNumber", hex}, got "0x".',
    ],
    [
      "a BigNumber without hex",
      { type: "BigNumber" },
      "Invalid value.hex: expected a 0x hex string, got undefined.",
    ],
    [
      "another object",
      { _hex: "0x01", _isBigNumber: true },
      'Invalid value: expected a non-negative safe integer, a 0x hex string or {type: "BigNumber", hex}, got {"_hex":"0x01","_isBigNumber":true}.',
    ],
    [
      "null",
      null,
      'Invalid value: expected a non-negative safe integer, a 0x hex string or {type: "BigNumber", hex}, got null.',
    ],
    [
      "a bigint",
      5n,
      'Invalid value: expected a non-negative safe integer, a 0x hex string or {type: "BigNumber", hex}, got 5n.',
    ],
  ])("rejects %s with a message naming the field", (_name, value, message) => {
    const read = () => transactionValueToBigInt(value as TransactionValue);
    expect(read).toThrow(InvalidValueError);
    expect(read).toThrow(message);
  });

  it("names the field it was given", () => {
    expect(() => transactionValueToBigInt("ten" as TransactionValue, "transactions[1].value")).toThrow(
      expect.objectContaining({ field: "transactions[1].value" }),
    );
  });
});
