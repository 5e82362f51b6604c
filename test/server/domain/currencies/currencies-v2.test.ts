import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tokenTable } from "../../../../src/chain/index.ts";
import { browserOrigin, problemErrors, startTestServer, type TestServer } from "../../helpers.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** The v1 and the v2 answer of the same query: status, body and error detail must be the same. */
async function bothPaths(v1: string, v2: string, auth: "apiKey" | "clientId" = "apiKey") {
  const [old, fresh] = await Promise.all([
    server.call("GET", v1, { auth }),
    server.call("GET", v2, { auth }),
  ]);
  return { old, fresh };
}

describe("listCurrenciesV2 (GET /v2/currencies)", () => {
  it.each([
    ["", "the whole table"],
    ["?network=base", "one network"],
    ["?symbol=usdc", "one symbol, any case"],
    ["?network=base&symbol=USDC&firstOnly=true", "the single object of firstOnly"],
    ["?id=FAU-sepolia", "the single object of id"],
    ["?network=sepolia&symbol=USDC", "404 for no match"],
    ["?network=base&firstOnly=true", "400 for firstOnly without symbol"],
  ])("answers %s exactly as the v1 path does (%s)", async (query) => {
    const { old, fresh } = await bothPaths(`/v1/currencies${query}`, `/v2/currencies${query}`);
    expect(fresh.status).toBe(old.status);
    const { instance: _v1Instance, requestId: _v1Request, ...oldBody } = old.body;
    const { instance: _v2Instance, requestId: _v2Request, ...freshBody } = fresh.body;
    expect(freshBody).toEqual(oldBody);
  });

  it("reads the same token table: the whole table, in order", async () => {
    expect((await server.call("GET", "/v2/currencies")).body).toEqual(tokenTable);
    const none = await server.call("GET", "/v2/currencies?network=sepolia&symbol=USDC");
    problemErrors(none, "/problems/not-found", 404);
    expect(none.body.detail).toBe("No currency matches symbol 'USDC' on network 'sepolia'.");
  });

  it("accepts a client ID from an allowed origin, and answers the browser's CORS preflight", async () => {
    const answer = await server.call("GET", "/v2/currencies?network=base&symbol=USDC", { auth: "clientId" });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("access-control-allow-origin")).toBe(browserOrigin);
    const preflight = await fetch(`${server.url}/v2/currencies`, {
      method: "OPTIONS",
      headers: {
        origin: browserOrigin,
        "access-control-request-method": "GET",
        "access-control-request-headers": "x-client-id,content-type",
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("access-control-allow-headers")).toContain("X-Client-Id");
  });
});

describe("listConversionRoutesV2 (GET /v2/currencies/{currencyId}/conversion-routes)", () => {
  it.each([
    ["USD", "", "USD on every network"],
    ["USD", "?network=sepolia", "the widget's query"],
    ["USD", "?networks=mainnet,base", "several networks"],
    ["USDC-base", "", "a currency id, converting to itself"],
    ["XYZ", "", "404 for an unknown currency"],
    ["USD", "?network=base&networks=base", "400 for both filters"],
  ])("answers %s%s exactly as the v1 path does (%s)", async (currencyId, query) => {
    const { old, fresh } = await bothPaths(
      `/v1/currencies/${currencyId}/conversion-routes${query}`,
      `/v2/currencies/${currencyId}/conversion-routes${query}`,
      "clientId",
    );
    expect(fresh.status).toBe(old.status);
    const { instance: _v1Instance, requestId: _v1Request, ...oldBody } = old.body;
    const { instance: _v2Instance, requestId: _v2Request, ...freshBody } = fresh.body;
    expect(freshBody).toEqual(oldBody);
  });

  it("lists the tokens a USD invoice can be paid with on one network, as the payment widget reads them", async () => {
    const answer = await server.call("GET", "/v2/currencies/USD/conversion-routes?network=base", {
      auth: "clientId",
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      currencyId: "USD",
      network: "base",
      conversionRoutes: tokenTable.filter((token) => token.network === "base"),
    });
    // Every token the sandbox lists on base is priced in dollars: the stablecoins and the ethers.
    expect(answer.body.conversionRoutes.map((token: { id: string }) => token.id)).toEqual([
      "USDC-base",
      "USDT-base",
      "DAI-base",
      "WETH-base",
      "ETH-base-base",
    ]);
  });
});
