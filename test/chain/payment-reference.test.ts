import { keccak256, stringToBytes } from "viem";
import { describe, expect, it } from "vitest";
import { computePaymentReference, generateSalt } from "../../src/chain/index.ts";

describe("computePaymentReference", () => {
  it("matches the service's published vector", () => {
    expect(
      computePaymentReference({ requestId: "01847474747474", salt: "8d03ea7", paymentAddress: "0x000001" }),
    ).toBe("0xa0098add01acc736");
  });

  it("lower-cases the whole preimage, so a checksummed address gives the same reference", () => {
    const requestId = `01${"ab".repeat(32)}`;
    const salt = "0f1e2d3c4b5a6978";
    const checksummed = computePaymentReference({
      requestId,
      salt,
      paymentAddress: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7",
    });
    const lower = computePaymentReference({
      requestId: requestId.toUpperCase(),
      salt,
      paymentAddress: "0x6923831acf5c327260d7ac7c9dff5b1c3cb3c7d7",
    });
    expect(checksummed).toBe(lower);
    const preimage = `${requestId}${salt}0x6923831acf5c327260d7ac7c9dff5b1c3cb3c7d7`;
    expect(checksummed).toBe(`0x${keccak256(stringToBytes(preimage)).slice(-16)}`);
    expect(checksummed).toMatch(/^0x[0-9a-f]{16}$/);
  });

  it("hashes the UTF-8 bytes of the preimage, characters beyond ASCII included", () => {
    const input = { requestId: "01ÄÖ", salt: "€", paymentAddress: "0x𝔸" };
    const preimage = "01äö€0x𝔸";
    expect(computePaymentReference(input)).toBe(`0x${keccak256(stringToBytes(preimage)).slice(-16)}`);
  });
});

describe("generateSalt", () => {
  it("gives 16 lower-case hex digits, different each time", () => {
    const salts = new Set(Array.from({ length: 32 }, () => generateSalt()));
    expect(salts.size).toBe(32);
    for (const salt of salts) expect(salt).toMatch(/^[0-9a-f]{16}$/);
  });
});
