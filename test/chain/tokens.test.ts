import { isAddress } from "viem";
import { describe, expect, it } from "vitest";
import {
  chainIds,
  computeNativeCurrencyHash,
  findToken,
  findTokenByAddress,
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

describe("the currencies the service's invoicing app offers", () => {
  it("are all in the table, with the addresses and decimals of the service's currency list", () => {
    const offered = [
      "ETH-sepolia-sepolia",
      "FAU-sepolia",
      "fUSDC-sepolia",
      "fUSDT-sepolia",
      "USDC-base",
      "USDT-base",
      "DAI-base",
      "USDCn-optimism",
      "USDT-optimism",
      "DAI-optimism",
      "USDCn-matic",
      "USDT-matic",
      "DAI-matic",
      "USDC-mainnet",
      "USDT-mainnet",
      "DAI-mainnet",
      "USDC-arbitrum-one",
      "USDT-arbitrum-one",
      "DAI-arbitrum-one",
    ];
    expect(offered.filter((id) => findToken(id) === undefined)).toEqual([]);
    const added = [
      "fUSDC-sepolia",
      "fUSDT-sepolia",
      "USDT-base",
      "USDCn-optimism",
      "USDCn-matic",
      "DAI-arbitrum-one",
    ];
    expect(added.map((id) => [id, findToken(id)?.address, findToken(id)?.decimals])).toEqual([
      ["fUSDC-sepolia", "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238", 18],
      ["fUSDT-sepolia", "0xF046b3CA5ae2879c6bAcC4D42fAF363eE8379F78", 18],
      ["USDT-base", "0xfde4C96c8593536E31F229EA8f37b2ADa2699bb2", 6],
      ["USDCn-optimism", "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85", 6],
      ["USDCn-matic", "0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359", 6],
      ["DAI-arbitrum-one", "0xDA10009cBd5D07dd0CeCc66161FC93D7c9000da1", 18],
    ]);
  });

  it("finds a currency by its contract on a network, in any letter case", () => {
    expect(findTokenByAddress("sepolia", "0x370de27fdb7d1ff1e1baa7d11c5820a324cf623c")?.id).toBe(
      "FAU-sepolia",
    );
    expect(findTokenByAddress("base", "0x370DE27fdb7D1Ff1e1BaA7D11c5820a324Cf623C")).toBeUndefined();
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
    expect(listTokens({ network: "goerli" })).toEqual([]);
  });

  it("lists what a search of the whole table finds, for every network and symbol", () => {
    const networks = [undefined, ...new Set(tokenTable.map((token) => token.network)), "__proto__"];
    const symbols = [undefined, ...new Set(tokenTable.map((token) => token.symbol.toUpperCase()))];
    for (const network of networks) {
      for (const symbol of symbols) {
        const searched = tokenTable.filter(
          (token) =>
            (network === undefined || token.network === network) &&
            (symbol === undefined || token.symbol.toLowerCase() === symbol.toLowerCase()),
        );
        expect(listTokens({ network, symbol }), `${network} ${symbol}`).toEqual(searched);
      }
    }
  });

  it("answers a list of its own, which the caller may change", () => {
    const listed = listTokens({ network: "sepolia" });
    listed.length = 0;
    expect(listTokens({ network: "sepolia" })).toHaveLength(4);
    expect(listTokens()).toHaveLength(tokenTable.length);
  });
});
