import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createSecurePayment,
  feeAddress,
  payer,
  problemErrors,
  startTestServer,
  type TestServer,
  usdcOnBase,
} from "../../helpers.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe("listPaymentRoutes (GET /v1/request/{paymentReference}/routes)", () => {
  it("offers the direct payment in the request's token and network, with or without 0x", async () => {
    const { requestIds } = await createSecurePayment(server, [usdcOnBase()]);
    const reference = (await server.server.store.requests.get(requestIds[0] as string))
      ?.paymentReference as string;
    const expected = {
      routes: [
        {
          id: "REQUEST_NETWORK_PAYMENT",
          fee: 0,
          speed: "FAST",
          price_impact: 0,
          chain: "BASE",
          token: "USDC",
        },
      ],
    };
    expect((await server.call("GET", `/v1/request/${reference}/routes?wallet=${payer}`)).body).toEqual(
      expected,
    );
    const bare = await server.call(
      "GET",
      `/v1/request/${reference.slice(2).toUpperCase()}/routes?wallet=${payer}`,
    );
    expect(bare.body).toEqual(expected);
  });

  it("states the fee of feePercentage as a fraction", async () => {
    const { requestIds } = await createSecurePayment(server, [usdcOnBase()]);
    const reference = (await server.server.store.requests.get(requestIds[0] as string))
      ?.paymentReference as string;
    const answer = await server.call(
      "GET",
      `/v1/request/${reference}/routes?wallet=${payer}&feePercentage=0.3&feeAddress=${feeAddress}`,
    );
    expect(answer.body.routes[0].fee).toBe(0.003);
  });

  it("answers 404 for an unknown reference and 400 without wallet", async () => {
    problemErrors(
      await server.call("GET", `/v1/request/0x0000000000000000/routes?wallet=${payer}`),
      "/problems/not-found",
      404,
    );
    const noWallet = await server.call("GET", "/v1/request/0x0000000000000000/routes");
    expect(problemErrors(noWallet, "/problems/validation-failed", 400)).toEqual([
      { path: "/query/wallet", message: "must have required property 'wallet'" },
    ]);
  });
});
