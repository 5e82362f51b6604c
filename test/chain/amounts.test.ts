import { maxUint256 } from "viem";
import { describe, expect, it } from "vitest";
import { computeFeeAmount, parseDecimalAmount } from "../../src/chain/index.ts";
import { rejection } from "./support/chain-input-rejection.ts";

describe("parseDecimalAmount", () => {
  it("converts whole and fractional amounts exactly", () => {
    expect(parseDecimalAmount("1", 6)).toBe(1_000_000n);
    expect(parseDecimalAmount("0.000001", 6)).toBe(1n);
    expect(parseDecimalAmount("125.50", 6)).toBe(125_500_000n);
    expect(parseDecimalAmount("0.1", 18)).toBe(100_000_000_000_000_000n);
    expect(parseDecimalAmount("7", 0)).toBe(7n);
    expect(parseDecimalAmount("0", 6)).toBe(0n);
  });

  it("keeps huge values exact, where floats would not", () => {
    expect(parseDecimalAmount("123456789012345678901234567890.123456789012345678", 18)).toBe(
      123456789012345678901234567890123456789012345678n,
    );
    expect(parseDecimalAmount(maxUint256.toString(), 0)).toBe(maxUint256);
  });

  it("accepts trailing zeros beyond the token's decimals, which lose nothing", () => {
    expect(parseDecimalAmount("1.000000000", 6)).toBe(1_000_000n);
  });

  it("rejects more significant fractional digits than the token has, instead of rounding", () => {
    expect(rejection(() => parseDecimalAmount("1.0000001", 6))).toEqual({
      field: "amount",
      code: "too_many_decimals",
      message: "amount 1.0000001 has 7 fractional digits but the currency allows at most 6.",
    });
    expect(rejection(() => parseDecimalAmount("0.5", 0, "requests[0].amount")).field).toBe(
      "requests[0].amount",
    );
  });

  it("rejects anything that is not a plain decimal", () => {
    for (const bad of ["", " 1", "1 ", "-1", "+1", "1e6", ".5", "1.", "1,5", "0x10", "NaN", "1.2.3"]) {
      expect(rejection(() => parseDecimalAmount(bad, 6))).toMatchObject({
        field: "amount",
        code: "invalid_format",
      });
    }
  });

  it("rejects amounts beyond uint256 and impossible decimals", () => {
    expect(rejection(() => parseDecimalAmount((maxUint256 + 1n).toString(), 0)).code).toBe("out_of_range");
    expect(rejection(() => parseDecimalAmount("1", -1))).toMatchObject({
      field: "decimals",
      code: "out_of_range",
    });
    expect(rejection(() => parseDecimalAmount("1", 2.5)).code).toBe("out_of_range");
  });
});

describe("computeFeeAmount", () => {
  it("computes percentages exactly with integer arithmetic", () => {
    expect(computeFeeAmount(1_000_000n, "2.5")).toBe(25_000n);
    expect(computeFeeAmount(1_000_000n, "100")).toBe(1_000_000n);
    expect(computeFeeAmount(1_000_000n, "100.00")).toBe(1_000_000n);
    expect(computeFeeAmount(10n ** 18n, "0.015")).toBe(150_000_000_000_000n);
    // 123456789 × 33333 / 100000 = 41151851.477…
    expect(computeFeeAmount(123_456_789n, "33.333")).toBe(41_151_851n);
  });

  it("rounds down", () => {
    expect(computeFeeAmount(999n, "1")).toBe(9n);
    expect(computeFeeAmount(1n, "99.99")).toBe(0n);
    expect(computeFeeAmount(3n, "50")).toBe(1n);
  });

  it("charges nothing without a percentage or at 0", () => {
    expect(computeFeeAmount(1_000_000n, undefined)).toBe(0n);
    expect(computeFeeAmount(1_000_000n, "0")).toBe(0n);
    expect(computeFeeAmount(1_000_000n, "0.0")).toBe(0n);
  });

  it("rejects percentages above 100 and malformed strings", () => {
    expect(rejection(() => computeFeeAmount(1n, "100.5"))).toEqual({
      field: "feePercentage",
      code: "out_of_range",
      message: "feePercentage must be at most 100, got 100.5.",
    });
    expect(rejection(() => computeFeeAmount(1n, "250")).code).toBe("out_of_range");
    for (const bad of ["", "-1", "2,5", "2.5%", "1e2", ".5", "abc", " 2"]) {
      expect(rejection(() => computeFeeAmount(1n, bad))).toMatchObject({
        field: "feePercentage",
        code: "invalid_format",
      });
    }
  });

  it("rejects a negative amount", () => {
    expect(rejection(() => computeFeeAmount(-1n, "1"))).toMatchObject({
      field: "amount",
      code: "out_of_range",
    });
  });
});
