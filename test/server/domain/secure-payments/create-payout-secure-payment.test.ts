import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  problemErrors,
  schemaErrors,
  startInstant,
  startTestServer,
  type TestServer,
} from "../../helpers.ts";

const recipient = "0x2B5AD5c4795c026514f8317c7a215E218DcCD6cF";
const creator = "0x522AF70Ff759ffAf327ba8F73a2710bDd39F33B9";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe("createPayoutSecurePayment (POST /v2/secure-payments/payouts)", () => {
  it("creates one request paying the recipient in the currency, behind a payable link", async () => {
    const answer = await server.call("POST", "/v2/secure-payments/payouts", {
      body: {
        recipient,
        creatorWalletAddress: creator,
        network: "base",
        currency: "USDC-base",
        amount: "250.00",
        reference: "PAYOUT-7",
        recipientIdentifier: "contractor-0042",
        feePercentage: "2.5",
      },
    });
    expect(answer.status).toBe(201);
    expect(schemaErrors("SecurePayment", answer.body)).toBe("");
    const { requestIds, token, securePaymentUrl } = answer.body;
    expect(requestIds).toHaveLength(1);
    expect(securePaymentUrl).toBe(`${server.url}/pay?token=${token}`);
    expect(await server.server.store.requests.get(requestIds[0])).toMatchObject({
      payee: recipient,
      network: "base",
      invoiceAmount: "250.00",
      invoiceCurrency: "USDC-base",
      paymentCurrency: "USDC-base",
      expectedAmount: "250000000",
      securePaymentToken: token,
    });
    expect(await server.server.store.securePayments.get(token)).toMatchObject({
      kind: "payout",
      status: "pending",
      reference: "PAYOUT-7",
      payout: { recipientIdentifier: "contractor-0042", creatorWalletAddress: creator },
      createdAt: startInstant,
    });
    // The link answers the token check like any other, the ignored fee included.
    const details = await server.call("GET", `/v2/secure-payments/${token}`, { auth: "clientId" });
    expect(details.status).toBe(200);
    expect(details.body).toMatchObject({
      paymentType: "single",
      payee: recipient,
      amount: "250",
      paymentCurrency: "USDC-base",
      reference: "PAYOUT-7",
      feeAmount: "0",
    });
  });

  it("takes the body without the creating wallet, as the service's own examples send it", async () => {
    const answer = await server.call("POST", "/v2/secure-payments/payouts", {
      body: { recipient, network: "sepolia", currency: "FAU-sepolia", amount: "12.5" },
    });
    expect(answer.status).toBe(201);
    expect(await server.server.store.securePayments.get(answer.body.token)).toMatchObject({
      network: "sepolia",
      payout: { recipientIdentifier: null, creatorWalletAddress: null },
    });
  });

  it("refuses a network other than the currency's, naming network", async () => {
    const answer = await server.call("POST", "/v2/secure-payments/payouts", {
      body: { recipient, network: "sepolia", currency: "USDC-base", amount: "1" },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/network",
        message: "is sepolia, but the currency USDC-base is paid on base: name the currency's network",
      },
    ]);
  });

  it("names the payout's own members: an unknown currency once, the zero recipient, a zero amount", async () => {
    const unknown = await server.call("POST", "/v2/secure-payments/payouts", {
      body: { recipient, network: "base", currency: "DOGE-base", amount: "1" },
    });
    expect(problemErrors(unknown, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/currency",
        message: 'is not a currency the service supports, got "DOGE-base" (see GET /v1/currencies)',
      },
    ]);
    const zero = await server.call("POST", "/v2/secure-payments/payouts", {
      body: {
        recipient: "0x0000000000000000000000000000000000000000",
        network: "base",
        currency: "USDC-base",
        amount: "0",
      },
    });
    expect(problemErrors(zero, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/recipient", message: "must not be the zero address: payments to it are burnt" },
      { path: "/body/amount", message: 'must be greater than 0, got "0"' },
    ]);
    const tron = await server.call("POST", "/v2/secure-payments/payouts", {
      body: {
        recipient: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t",
        network: "base",
        currency: "USDC-base",
        amount: "1",
      },
    });
    expect(problemErrors(tron, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/recipient",
        message:
          "is a Tron address, and payreq serves EVM networks only: send an EVM address (0x and 40 hex digits)",
      },
    ]);
  });
});
