import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tokenTable } from "../../../../src/chain/index.ts";
import { requireCurrency } from "../../../../src/server/domain/shared/currencies.ts";
import { problemErrors, startTestServer, type TestServer } from "../../helpers.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const usdcBase = tokenTable.find((token) => token.id === "USDC-base");

describe("listCurrencies (GET /v1/currencies)", () => {
  it("lists the whole token table without filters", async () => {
    const answer = await server.call("GET", "/v1/currencies");
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual(tokenTable);
  });

  it("filters by network and by symbol (case-insensitively), combined", async () => {
    const base = await server.call("GET", "/v1/currencies?network=base");
    expect(base.body).toEqual(tokenTable.filter((token) => token.network === "base"));
    const usdc = await server.call("GET", "/v1/currencies?symbol=usdc");
    expect(usdc.body.map((token: { id: string }) => token.id)).toEqual([
      "USDC-mainnet",
      "USDC-base",
      "USDC-optimism",
      "USDC-arbitrum-one",
      "USDC-matic",
    ]);
    const both = await server.call("GET", "/v1/currencies?network=base&symbol=USDC");
    expect(both.body).toEqual([usdcBase]);
    expect(Array.isArray(both.body)).toBe(true);
  });

  it("answers a single object for firstOnly=true with network and symbol, an array for false", async () => {
    const first = await server.call("GET", "/v1/currencies?network=base&symbol=USDC&firstOnly=true");
    expect(first.body).toEqual(usdcBase);
    const notFirst = await server.call("GET", "/v1/currencies?network=base&symbol=USDC&firstOnly=false");
    expect(notFirst.body).toEqual([usdcBase]);
  });

  it("refuses firstOnly without both network and symbol, naming firstOnly", async () => {
    const answer = await server.call("GET", "/v1/currencies?network=base&firstOnly=true");
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      { path: "/query/firstOnly", message: "can only be used together with both network and symbol" },
    ]);
    const invalid = await server.call("GET", "/v1/currencies?network=base&symbol=USDC&firstOnly=yes");
    expect(problemErrors(invalid, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/query/firstOnly",
        message: 'must be equal to one of the allowed values: true, false, got "yes"',
      },
    ]);
  });

  it("answers a single object for id, which also combines with the other filters", async () => {
    const byId = await server.call("GET", "/v1/currencies?id=FAU-sepolia");
    expect(byId.body).toMatchObject({
      id: "FAU-sepolia",
      address: "0x370DE27fdb7D1Ff1e1BaA7D11c5820a324Cf623C",
      decimals: 18,
      chainId: 11155111,
    });
    const native = await server.call("GET", "/v1/currencies?id=ETH-base-base");
    expect(native.body).toMatchObject({ type: "ETH", network: "base", symbol: "ETH-base" });
    const mismatch = await server.call("GET", "/v1/currencies?id=FAU-sepolia&network=base");
    problemErrors(mismatch, "/problems/not-found", 404);
  });

  it("answers 404 when nothing matches, naming the filters", async () => {
    const answer = await server.call("GET", "/v1/currencies?network=sepolia&symbol=USDC");
    problemErrors(answer, "/problems/not-found", 404);
    expect(answer.body.detail).toBe("No currency matches symbol 'USDC' on network 'sepolia'.");
  });
});

describe("listConversionRoutes (GET /v1/currencies/{currencyId}/conversion-routes)", () => {
  it("lists every currency of the sandbox price table for USD and EUR, on every network without a filter", async () => {
    for (const fiat of ["USD", "EUR", "eur"]) {
      const answer = await server.call("GET", `/v1/currencies/${fiat}/conversion-routes`);
      expect(answer.status).toBe(200);
      expect(answer.body.currencyId).toBe(fiat);
      expect(answer.body.network).toBeNull();
      expect(answer.body.conversionRoutes).toEqual(tokenTable);
    }
  });

  it("filters by network, or by networks (then answering networks instead of network)", async () => {
    const one = await server.call("GET", "/v1/currencies/USD/conversion-routes?network=base");
    expect(one.body).toEqual({
      currencyId: "USD",
      network: "base",
      conversionRoutes: tokenTable.filter((t) => t.network === "base"),
    });
    const several = await server.call(
      "GET",
      "/v1/currencies/USD/conversion-routes?networks=mainnet,optimism",
    );
    expect(several.body.networks).toEqual(["mainnet", "optimism"]);
    expect("network" in several.body).toBe(false);
    expect(several.body.conversionRoutes.map((t: { id: string }) => t.id)).toEqual([
      "USDC-mainnet",
      "USDT-mainnet",
      "DAI-mainnet",
      "WETH-mainnet",
      "ETH-mainnet",
      "USDC-optimism",
      "USDCn-optimism",
      "USDT-optimism",
      "DAI-optimism",
      "WETH-optimism",
      "ETH-optimism-optimism",
    ]);
  });

  it("routes a token id to itself", async () => {
    const answer = await server.call("GET", "/v1/currencies/FAU-sepolia/conversion-routes");
    expect(answer.body.conversionRoutes.map((t: { id: string }) => t.id)).toEqual(["FAU-sepolia"]);
  });

  it("refuses network and networks together, and answers 404 for an unknown currency", async () => {
    const both = await server.call("GET", "/v1/currencies/USD/conversion-routes?network=base&networks=base");
    expect(problemErrors(both, "/problems/validation-failed", 400)).toEqual([
      { path: "/query/networks", message: "cannot be sent together with network; send one or the other" },
    ]);
    const unknown = await server.call("GET", "/v1/currencies/JPY/conversion-routes");
    problemErrors(unknown, "/problems/not-found", 404);
    expect(unknown.body.detail).toBe("No currency has the id or fiat code 'JPY'.");
  });
});

describe("requireCurrency", () => {
  it("gives a stored record's currency, and fails as the server's own bug when it is unknown", () => {
    expect(requireCurrency("USDC-base", "request r-1")).toBe(usdcBase);
    expect(() => requireCurrency("DOGE-base", "request r-1")).toThrow(
      new Error("request r-1 names unknown currency DOGE-base"),
    );
  });
});
