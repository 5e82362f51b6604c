import { isAddress } from "viem";
import { describe, expect, it } from "vitest";
import {
  chainIds,
  computeNativeCurrencyHash,
  findToken,
  listTokens,
  networkNames,
  type TokenRecord,
  tokenTable,
} from "../../src/chain/index.ts";
import { createSchemaValidator, describeErrors } from "../../src/spec/schema-validator.ts";
import { isObject, loadBundledSpec } from "../../src/spec/spec-document.ts";

const spec = loadBundledSpec();

/** Every Currency object the spec's named examples show, found by walking their values. */
function exampleCurrencies(): Record<string, unknown>[] {
  const found: Record<string, unknown>[] = [];
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(walk);
    else if (isObject(node)) {
      if (typeof node.id === "string" && typeof node.hash === "string" && "chainId" in node) found.push(node);
      else Object.values(node).forEach(walk);
    }
  };
  const examples = (spec.components as { examples: Record<string, { value?: unknown }> }).examples;
  for (const example of Object.values(examples)) walk(example.value);
  return found;
}

function caseInsensitiveAddresses(record: Record<string, unknown>) {
  return {
    ...record,
    address: String(record.address).toLowerCase(),
    hash: String(record.hash).toLowerCase(),
  };
}

describe("tokenTable", () => {
  it("validates every record against the spec's Currency schema", () => {
    const validator = createSchemaValidator(spec);
    for (const token of tokenTable) {
      const errors = validator.errorsFor({ $ref: "#/components/schemas/Currency" }, token);
      expect(describeErrors(errors), token.id).toBe("");
    }
  });

  it("agrees with every currency the spec's examples show, field by field", () => {
    const shown = exampleCurrencies().filter((currency) => findToken(String(currency.id)));
    expect(shown.map((currency) => currency.id)).toEqual(
      expect.arrayContaining(["USDC-base", "USDC-mainnet", "USDT-mainnet", "ETH-mainnet", "FAU-sepolia"]),
    );
    for (const currency of shown) {
      const token = findToken(String(currency.id)) as TokenRecord;
      expect(caseInsensitiveAddresses({ ...token }), token.id).toEqual(caseInsensitiveAddresses(currency));
    }
  });

  it("has unique ids of the form <SYMBOL>-<network>, and the chain id of the network", () => {
    expect(new Set(tokenTable.map((token) => token.id.toLowerCase())).size).toBe(tokenTable.length);
    for (const token of tokenTable) {
      expect(token.id).toBe(`${token.symbol}-${token.network}`);
      expect(token.chainId).toBe(chainIds[token.network]);
    }
  });

  it("covers USDC and the native coin on every network", () => {
    for (const network of networkNames) {
      const types = listTokens({ network }).map((token) => token.type);
      expect(types, network).toContain("ETH");
      if (network !== "sepolia") expect(listTokens({ network, symbol: "USDC" }), network).toHaveLength(1);
    }
    expect(findToken("FAU-sepolia")).toMatchObject({
      address: "0x370DE27fdb7D1Ff1e1BaA7D11c5820a324Cf623C",
      decimals: 18,
      type: "ERC20",
    });
    expect(findToken("USDT-mainnet")).toMatchObject({
      address: "0xdAC17F958D2ee523a2206206994597C13D831ec7",
      decimals: 6,
    });
  });

  it("writes ERC-20 addresses with a valid EIP-55 checksum, and the address as hash", () => {
    for (const token of tokenTable.filter((record) => record.type === "ERC20")) {
      expect(isAddress(token.address, { strict: true }), token.id).toBe(true);
      expect(token.hash).toBe(token.address);
    }
  });

  it("gives native coins the service's symbol-derived hash as address and hash", () => {
    expect(computeNativeCurrencyHash("ETH")).toBe("0xf5af88e117747e87fc5929f2ff87221b1447652e");
    expect(findToken("ETH-mainnet")).toMatchObject({
      symbol: "ETH",
      address: "0xf5af88e117747e87fc5929f2ff87221b1447652e",
      hash: "0xf5af88e117747e87fc5929f2ff87221b1447652e",
      decimals: 18,
    });
    expect(findToken("ETH-sepolia-sepolia")).toMatchObject({
      symbol: "ETH-sepolia",
      network: "sepolia",
      type: "ETH",
      hash: computeNativeCurrencyHash("ETH-sepolia"),
    });
    for (const token of tokenTable.filter((record) => record.type === "ETH")) {
      expect(token.hash).toBe(computeNativeCurrencyHash(token.symbol));
      expect(token.address).toBe(token.hash);
    }
  });
});

describe("findToken and listTokens", () => {
  it("finds ids case-insensitively and nothing else", () => {
    expect(findToken("usdc-BASE")?.id).toBe("USDC-base");
    expect(findToken("ETH-base-base")?.network).toBe("base");
    expect(findToken("USDC")).toBeUndefined();
    expect(findToken("USDC-polygon")).toBeUndefined();
    expect(findToken("__proto__")).toBeUndefined();
  });

  it("filters by network and symbol", () => {
    expect(listTokens({ network: "mainnet" }).map((token) => token.id)).toEqual([
      "USDC-mainnet",
      "USDT-mainnet",
      "DAI-mainnet",
      "WETH-mainnet",
      "ETH-mainnet",
    ]);
    expect(listTokens({ symbol: "usdc" }).map((token) => token.network)).toEqual([
      "mainnet",
      "base",
      "optimism",
      "arbitrum-one",
      "matic",
    ]);
    expect(listTokens({ network: "sepolia", symbol: "USDC" })).toEqual([]);
    expect(listTokens()).toHaveLength(tokenTable.length);
    expect(listTokens({ network: undefined, symbol: "FAU" }).map((token) => token.id)).toEqual([
      "FAU-sepolia",
    ]);
  });
});
