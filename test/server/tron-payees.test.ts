import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payee, payer, problemErrors, startTestServer, type TestServer } from "./helpers.ts";

// The spec takes a Tron payee, as the service does (PayeeAddress); the sandbox serves EVM networks
// only, so the server refuses one by name, before anything is created.
const tronPayee = "TJCnKsPa7y5okkXvQAidZBzqx3QyQ6sxMW";
const tronRefused = {
  message:
    "is a Tron address, and payreq serves EVM networks only: send an EVM address (0x and 40 hex digits)",
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe("createPayout (POST /v2/payouts) to a Tron payee", () => {
  it("refuses the service's published Tron payout, naming the payee and the Tron currency", async () => {
    const answer = await server.call("POST", "/v2/payouts", {
      body: { payee: tronPayee, amount: "10", invoiceCurrency: "USDT-tron", paymentCurrency: "USDT-tron" },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/payee", ...tronRefused },
      {
        path: "/body/paymentCurrency",
        message: 'is not a currency the service supports, got "USDT-tron" (see GET /v1/currencies)',
      },
    ]);
  });

  it("refuses a Tron payee paid in an EVM currency, once or recurring", async () => {
    const oneOff = { payee: tronPayee, amount: "10", invoiceCurrency: "USD", paymentCurrency: "USDC-base" };
    const recurring = {
      ...oneOff,
      recurrence: { startDate: "2026-05-01", frequency: "MONTHLY", totalPayments: 3, payer },
    };
    for (const body of [oneOff, recurring]) {
      const answer = await server.call("POST", "/v2/payouts", { body });
      expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
        { path: "/body/payee", ...tronRefused },
      ]);
    }
  });
});

describe("createRequest (POST /v2/request) to a Tron payee", () => {
  it("refuses it by name", async () => {
    const answer = await server.call("POST", "/v2/request", {
      body: { payee: tronPayee, amount: "10", invoiceCurrency: "USD", paymentCurrency: "USDC-base" },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/payee", ...tronRefused },
    ]);
  });
});

describe("createBatchPayout (POST /v2/payouts/batch) with a Tron payee", () => {
  it("refuses the batch, naming the item", async () => {
    const item = { amount: "10", invoiceCurrency: "USD", paymentCurrency: "USDC-base" };
    const answer = await server.call("POST", "/v2/payouts/batch", {
      body: {
        requests: [
          { payee, ...item },
          { payee: tronPayee, ...item },
        ],
      },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/requests/1/payee", ...tronRefused },
    ]);
  });
});
