import { describe, expect, it } from "vitest";
import { halfOfRemaining } from "../../src/cli/webhooks/partial-amount.ts";

describe("halfOfRemaining (the default amount of `payreq webhooks trigger payment.partial`)", () => {
  it.each([
    ["125", "0", "62.5"],
    ["125.00", "0", "62.5"],
    ["125", "40", "42.5"],
    ["0.000003", "0.000001", "0.000001"],
    ["0.000001", "0", "0.0000005"],
    ["100", "99.99", "0.005"],
    ["125", "125", "0"],
    ["123456789012345678901234567890.1", "0", "61728394506172839450617283945.05"],
  ])("expected %s, paid %s: %s", (expected, paid, half) => {
    expect(halfOfRemaining(expected, paid)).toBe(half);
  });
});
