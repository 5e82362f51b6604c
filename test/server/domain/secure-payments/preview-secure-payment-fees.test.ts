import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  browserOrigin,
  feeAddress,
  problemErrors,
  schemaErrors,
  startTestServer,
  type TestServer,
} from "../../helpers.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function clientIdWithFee(feePercentage: string): Promise<Record<string, string>> {
  const created = await server.call("POST", "/v2/client-ids", {
    body: { label: "Fee", allowedDomains: [browserOrigin], feePercentage, feeAddress },
  });
  expect(created.status).toBe(201);
  return { "x-client-id": created.body.clientId, origin: browserOrigin };
}

describe("previewSecurePaymentFees (POST /v2/secure-payments/fees/preview)", () => {
  it("plans no fee for an API key: the payee's default when getting paid, the payer's when paying", async () => {
    const getPaid = await server.call("POST", "/v2/secure-payments/fees/preview", {
      body: { amount: "100", currency: "USDC", flow: "get_paid" },
    });
    expect(getPaid.status).toBe(200);
    expect(getPaid.body).toEqual({
      version: 1,
      flow: "get_paid",
      defaultFeeBearer: "payee",
      grossAmountUsd: "100",
      netRecipientAmountUsd: "100",
      payerTotalAmountUsd: "100",
      totalFeesUsd: "0",
      payeeBorneFeesUsd: "0",
      payerBorneFeesUsd: "0",
      fees: [],
    });
    const pay = await server.call("POST", "/v2/secure-payments/fees/preview", {
      body: { amount: "100", currency: "USDT-mainnet", flow: "pay" },
    });
    expect(pay.body).toMatchObject({ flow: "pay", defaultFeeBearer: "payer", fees: [] });
  });

  it("plans the calling client ID's fee on the bearer's side, exactly", async () => {
    const headers = await clientIdWithFee("1.5");
    const payeeBears = await server.call("POST", "/v2/secure-payments/fees/preview", {
      auth: "none",
      headers,
      body: { amount: "12.5", currency: "USDC-base", flow: "get_paid" },
    });
    expect(payeeBears.status).toBe(200);
    expect(schemaErrors("SecurePaymentFeePreview", payeeBears.body)).toBe("");
    expect(payeeBears.body).toEqual({
      version: 1,
      flow: "get_paid",
      defaultFeeBearer: "payee",
      grossAmountUsd: "12.5",
      netRecipientAmountUsd: "12.3125",
      payerTotalAmountUsd: "12.5",
      totalFeesUsd: "0.1875",
      payeeBorneFeesUsd: "0.1875",
      payerBorneFeesUsd: "0",
      fees: [
        {
          type: "platform",
          label: "Client ID fee",
          feeBearer: "payee",
          feeBearerSource: "flow_default",
          percentageBps: 150,
          capUsd: null,
          calculatedAmountUsd: "0.1875",
          destinationResolver: "client_id_fee_address",
          destinationRef: { evmAddress: feeAddress },
          configSource: "client_id",
        },
      ],
    });
    const payerBears = await server.call("POST", "/v2/secure-payments/fees/preview", {
      auth: "none",
      headers,
      body: { amount: "40", currency: "USDC", flow: "get_paid", defaultFeeBearer: "payer" },
    });
    expect(payerBears.body).toMatchObject({
      defaultFeeBearer: "payer",
      netRecipientAmountUsd: "40",
      payerTotalAmountUsd: "40.6",
      payerBorneFeesUsd: "0.6",
      fees: [{ feeBearer: "payer", feeBearerSource: "payment_default_override", calculatedAmountUsd: "0.6" }],
    });
  });

  it("refuses a currency that is not a dollar stablecoin, and an unknown one, naming currency", async () => {
    for (const currency of ["ETH-base", "EURC", "DOGE"]) {
      const answer = await server.call("POST", "/v2/secure-payments/fees/preview", {
        body: { amount: "1", currency, flow: "pay" },
      });
      expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
        {
          path: "/body/currency",
          message: `is not a dollar stablecoin the service lists, got "${currency}": fees are planned in USD`,
        },
      ]);
    }
  });
});
