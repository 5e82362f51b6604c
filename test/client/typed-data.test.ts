import { verifyTypedData } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { InvalidValueError, readTypedData } from "../../src/index.ts";

const permitJson = JSON.stringify({
  domain: {
    name: "USD Coin",
    version: "2",
    chainId: 10,
    verifyingContract: "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85",
  },
  types: {
    EIP712Domain: [{ name: "name", type: "string" }],
    Permit: [
      { name: "owner", type: "address" },
      { name: "value", type: "uint256" },
      { name: "deadline", type: "uint256" },
    ],
  },
  primaryType: "Permit",
  values: {
    owner: "0x522AF70Ff759ffAf327ba8F73a2710bDd39F33B9",
    value: "1000000",
    deadline: "1776164400",
  },
});

const nested = {
  domain: { name: "Permit2", chainId: 42161 },
  types: {
    Outer: [
      { name: "inner", type: "Inner[]" },
      { name: "amount", type: "uint256" },
    ],
    Inner: [{ name: "token", type: "address" }],
  },
  values: { inner: [{ token: "0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9" }], amount: "5" },
};

describe("readTypedData", () => {
  it("reads the JSON text the service answers, moving values to message and leaving EIP712Domain out", () => {
    const read = readTypedData(permitJson);
    expect(read.primaryType).toBe("Permit");
    expect(Object.keys(read.types)).toEqual(["Permit"]);
    expect(read.message).toEqual(JSON.parse(permitJson).values);
    expect(read.domain).toEqual(JSON.parse(permitJson).domain);
  });

  it("finds the primary type of an object without one: the type no other type refers to", () => {
    expect(readTypedData(nested).primaryType).toBe("Outer");
    expect(readTypedData({ ...nested, message: nested.values, values: undefined }).message).toEqual(
      nested.values,
    );
  });

  it("gives viem what it signs and verifies as is", async () => {
    const account = privateKeyToAccount("0x0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef");
    const typedData = readTypedData(nested);
    const signature = await account.signTypedData(typedData as never);
    expect(await verifyTypedData({ ...typedData, address: account.address, signature } as never)).toBe(true);
    const other = readTypedData({ ...nested, values: { ...nested.values, amount: "6" } });
    expect(await verifyTypedData({ ...other, address: account.address, signature } as never)).toBe(false);
  });

  it.each([
    ["{not json", "typed data", "a JSON object"],
    [[], "typed data", "an object"],
    [{ types: {}, values: {} }, "typed data domain", "an object"],
    [{ domain: {}, values: {} }, "typed data types", "an object"],
    [
      { domain: {}, types: { A: [{ name: "a" }] }, values: {} },
      "typed data types.A[0]",
      "a member {name, type}",
    ],
    [{ domain: {}, types: { A: [] } }, "typed data values", "an object"],
    [
      { domain: {}, types: { A: [] }, values: {}, primaryType: "B" },
      "typed data primaryType",
      "the name of one of its types",
    ],
    [
      { domain: {}, types: { A: [], B: [] }, values: {} },
      "typed data types",
      "exactly one type that no other type refers to",
    ],
  ])("refuses %j, naming %s", (payload, field, expected) => {
    let thrown: unknown;
    try {
      readTypedData(payload);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidValueError);
    expect((thrown as InvalidValueError).field).toBe(field);
    expect((thrown as InvalidValueError).shortMessage).toContain(`expected ${expected}`);
  });
});
