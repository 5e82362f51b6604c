import { decodeTime } from "ulid";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { computePaymentReference } from "../../../../src/chain/index.ts";
import { createDefaultConfig } from "../../../../src/server/index.ts";
import {
  createSecurePayment,
  feeAddress,
  payee,
  problemErrors,
  schemaErrors,
  startInstant,
  startTestServer,
  type TestServer,
  usdcOnBase,
} from "../../helpers.ts";
import { registerPayeeDestination } from "../../payee-destination-support.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe("createSecurePayment (POST /v2/secure-payments)", () => {
  it("creates the requests and a link, answering 201", async () => {
    const answer = await server.call("POST", "/v2/secure-payments", {
      body: {
        requests: [usdcOnBase()],
        reference: "ORDER-1",
        redirectUrl: "https://shop.example.com/thanks",
      },
    });
    expect(answer.status).toBe(201);
    expect(schemaErrors("SecurePayment", answer.body)).toBe("");
    const { requestIds, securePaymentUrl, token } = answer.body;
    expect(requestIds).toHaveLength(1);
    expect(requestIds[0]).toMatch(/^01[0-9a-f]{64}$/);
    expect(token).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(decodeTime(token)).toBe(Date.parse(startInstant));
    expect(securePaymentUrl).toBe(`${server.url}/pay?token=${token}`);
  });

  it("takes the destination form of an item: the destination's wallet paid in its token", async () => {
    const wallet = privateKeyToAccount(generatePrivateKey());
    const { destinationId } = await registerPayeeDestination(server, wallet);
    const answer = await server.call("POST", "/v2/secure-payments", {
      body: { requests: [{ destinationId, amount: "10" }], feePercentage: "2.5", feeAddress },
    });
    expect(answer.status).toBe(201);
    const request = await server.server.store.requests.get(answer.body.requestIds[0]);
    expect(request).toMatchObject({
      payee: wallet.address,
      network: "sepolia",
      invoiceAmount: "10",
      invoiceCurrency: "FAU-sepolia",
      paymentCurrency: "FAU-sepolia",
      expectedAmount: "10000000000000000000",
    });
    // The deprecated fee members are ignored, as by the service.
    const details = await server.call("GET", `/v2/secure-payments/${answer.body.token}`);
    expect(details.body).toMatchObject({ feeAmount: "0", feeAddress: null });
  });

  it("refuses a destination with a wrong checksum or never registered, and an item naming no payee", async () => {
    const answer = await server.call("POST", "/v2/secure-payments", {
      body: {
        requests: [
          {
            destinationId: `${payee}@eip155:56#A1B2C3D4:0x370DE27fdb7D1Ff1e1BaA7D11c5820a324Cf623C`,
            amount: "1",
          },
          {
            destinationId: `${payee}@eip155:8453#89CDCBED:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913`,
            amount: "1",
          },
          { amount: "1" },
        ],
      },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/requests/0/destinationId",
        message: `has a checksum that is not the one of ${payee} on chain 56; copy the destinationId that POST /v2/payee-destination answered`,
      },
      {
        path: "/body/requests/1/destinationId",
        message:
          "is not a payee destination of your account: the payee registers it first (GET /v2/payee-destination/signing-data, then POST /v2/payee-destination)",
      },
      {
        path: "/body/requests/2/destinationId",
        message:
          "is required here: the client ID is bound to no payee destination, so send destinationId, or payee, invoiceCurrency and paymentCurrency",
      },
    ]);
  });

  it("computes each payment reference from requestId, salt and payee", async () => {
    const { requestIds } = await createSecurePayment(server, [usdcOnBase("1"), usdcOnBase("2")]);
    for (const requestId of requestIds) {
      const record = await server.server.store.requests.get(requestId);
      expect(record?.salt).toMatch(/^[0-9a-f]{16}$/);
      expect(record?.paymentReference).toBe(
        computePaymentReference({ requestId, salt: record?.salt as string, paymentAddress: payee }),
      );
    }
  });

  it("makes unguessable tokens: same millisecond, different random parts", async () => {
    const tokens = await Promise.all([1, 2, 3].map(() => createSecurePayment(server).then((sp) => sp.token)));
    expect(new Set(tokens).size).toBe(3);
    expect(new Set(tokens.map((token) => token.slice(0, 10))).size).toBe(1);
    expect(new Set(tokens.map((token) => token.slice(10))).size).toBe(3);
  });

  it("refuses requests on several networks, naming the item", async () => {
    const answer = await server.call("POST", "/v2/secure-payments", {
      body: {
        requests: [usdcOnBase(), { ...usdcOnBase(), paymentCurrency: "USDC-arbitrum-one" }],
      },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/requests/1/paymentCurrency",
        message: "must be on network base like /body/requests/0, got USDC-arbitrum-one",
      },
    ]);
    expect(answer.body.detail).toBe(
      "All requests must pay on one network: /body/requests/0 pays on base, /body/requests/1 on arbitrum-one.",
    );
  });

  it("refuses an unknown payment currency, an unconvertible invoice currency and a zero amount", async () => {
    const answer = await server.call("POST", "/v2/secure-payments", {
      body: {
        requests: [
          { ...usdcOnBase(), paymentCurrency: "DOGE-base" },
          { ...usdcOnBase(), invoiceCurrency: "GBP" },
          usdcOnBase("0.00"),
        ],
      },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/requests/0/paymentCurrency",
        message: 'is not a currency the service supports, got "DOGE-base" (see GET /v1/currencies)',
      },
      {
        path: "/body/requests/1/invoiceCurrency",
        message:
          "cannot be paid in USDC-base: the sandbox converts only USD and EUR invoices, or a request invoiced in the payment currency itself",
      },
      { path: "/body/requests/2/amount", message: 'must be greater than 0, got "0.00"' },
    ]);
  });

  it("refuses an amount more than a uint256 holds in the token's base units", async () => {
    const huge = "9".repeat(78);
    const answer = await server.call("POST", "/v2/secure-payments", {
      body: { requests: [usdcOnBase(huge)] },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/requests/0/amount",
        message: `is too large to pay on chain in USDC-base, got "${huge}"`,
      },
    ]);
  });

  it("answers 401 without credentials and creates nothing", async () => {
    const answer = await server.call("POST", "/v2/secure-payments", {
      auth: "none",
      body: { requests: [usdcOnBase()] },
    });
    problemErrors(answer, "/problems/unauthorized", 401);
  });
});

describe("checkSecurePaymentToken (GET /v2/secure-payments/{token})", () => {
  it("answers 200 with the single payment's details while pending", async () => {
    const created = await server.call("POST", "/v2/secure-payments", {
      body: { requests: [usdcOnBase("125.00")], reference: "ORDER-2026-0412" },
    });
    const answer = await server.call("GET", `/v2/secure-payments/${created.body.token}`);
    const request = await server.call("GET", `/sandbox/requests/${created.body.requestIds[0]}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      paymentType: "single",
      status: "pending",
      requestIds: created.body.requestIds,
      network: "base",
      reference: "ORDER-2026-0412",
      redirectUrl: null,
      redirectLabel: null,
      branding: null,
      expiresAt: "2026-04-19T10:00:00.000Z",
      feePlan: null,
      payee,
      amount: "125",
      paymentCurrency: "USDC-base",
      isNativeCurrency: false,
      paymentReference: request.body.paymentReference,
      feeAmount: "0",
      feeAddress: null,
      destination: {
        destinationId: `${payee}@eip155:8453#89CDCBED:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913`,
        payeeAddress: `${payee}@eip155:8453#89CDCBED`,
        tokenAddress: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
        walletAddress: payee,
        network: "base",
      },
    });
  });

  it("takes the query parameters of the service's contract, and refuses contradictory ones", async () => {
    const { token } = await createSecurePayment(server);
    const plain = await server.call("GET", `/v2/secure-payments/${token}`);
    const withWallet = await server.call(
      "GET",
      `/v2/secure-payments/${token}?wallet=${payee}&chain=BASE&token=USDC&eoaWallet=${feeAddress}&isSafe=false`,
    );
    expect(withWallet.status).toBe(200);
    expect(withWallet.body).toEqual(plain.body);
    const chainAlone = await server.call("GET", `/v2/secure-payments/${token}?chain=BASE`);
    expect(problemErrors(chainAlone, "/problems/validation-failed", 400)).toEqual([
      { path: "/query/token", message: "is required together with chain" },
    ]);
    const safeAndEoa = await server.call(
      "GET",
      `/v2/secure-payments/${token}?eoaWallet=${feeAddress}&isSafe=true`,
    );
    expect(problemErrors(safeAndEoa, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/query/isSafe",
        message: "cannot be true together with eoaWallet: a Safe holds its own funds",
      },
    ]);
  });

  it("answers the redirect label given at creation", async () => {
    const created = await server.call("POST", "/v2/secure-payments", {
      body: {
        requests: [usdcOnBase()],
        redirectUrl: "https://shop.example.com/thanks",
        redirectLabel: "Back to the shop",
        payerIdentifier: "customer-77",
      },
    });
    const answer = await server.call("GET", `/v2/secure-payments/${created.body.token}`);
    expect(answer.body).toMatchObject({
      redirectUrl: "https://shop.example.com/thanks",
      redirectLabel: "Back to the shop",
    });
    expect((await server.server.store.securePayments.get(created.body.token))?.payerIdentifier).toBe(
      "customer-77",
    );
  });

  it("answers a batch with parallel lists and one native flag", async () => {
    const other = "0xb07d2398d2004378cad234da0ef14f1c94a530e4";
    const { token, requestIds } = await createSecurePayment(server, [
      usdcOnBase("40.00"),
      { payee: other, amount: "12.5", invoiceCurrency: "DAI-base", paymentCurrency: "DAI-base" },
    ]);
    const answer = await server.call("GET", `/v2/secure-payments/${token}`);
    expect(answer.body).toMatchObject({
      paymentType: "batch",
      requestIds,
      payees: [payee, other],
      amounts: ["40", "12.5"],
      paymentCurrencies: ["USDC-base", "DAI-base"],
      isNativeCurrency: false,
      branding: null,
    });
    expect(answer.body.destinations).toEqual([
      {
        destinationId: `${payee}@eip155:8453#89CDCBED:0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913`,
        payeeAddress: `${payee}@eip155:8453#89CDCBED`,
        tokenAddress: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
        walletAddress: payee,
        network: "base",
      },
      {
        destinationId:
          "0xb07D2398d2004378cad234DA0EF14f1c94A530e4@eip155:8453#EC7F03CE:0x50c5725949A6F0c72E6C4a641F24049A917DB0Cb",
        payeeAddress: "0xb07D2398d2004378cad234DA0EF14f1c94A530e4@eip155:8453#EC7F03CE",
        tokenAddress: "0x50c5725949A6F0c72E6C4a641F24049A917DB0Cb",
        walletAddress: "0xb07D2398d2004378cad234DA0EF14f1c94A530e4",
        network: "base",
      },
    ]);
  });

  it("answers per-payment native flags when a batch mixes native and ERC-20", async () => {
    const { token } = await createSecurePayment(server, [
      usdcOnBase("1"),
      { payee, amount: "0.01", invoiceCurrency: "ETH-base-base", paymentCurrency: "ETH-base-base" },
    ]);
    const answer = await server.call("GET", `/v2/secure-payments/${token}`);
    expect(answer.body.isNativeCurrency).toEqual([false, true]);
    expect(answer.body.amounts).toEqual(["1", "0.01"]);
  });

  it("answers 403 once the 7 days have passed, by the clock", async () => {
    const clockServer = await startTestServer();
    try {
      const { token } = await createSecurePayment(clockServer);
      clockServer.clock.set("2026-04-19T09:59:59.999Z");
      expect((await clockServer.call("GET", `/v2/secure-payments/${token}`)).status).toBe(200);
      clockServer.clock.set("2026-04-19T10:00:00.000Z");
      const expired = await clockServer.call("GET", `/v2/secure-payments/${token}`);
      problemErrors(expired, "/problems/secure-payment-not-payable", 403);
      expect(expired.body.detail).toBe(
        `The secure payment ${token} expired on 2026-04-19T10:00:00.000Z; ask the merchant for a new payment link.`,
      );
    } finally {
      await clockServer.close();
    }
  });

  it("answers 403 for invalidated and compliance_failed links", async () => {
    for (const status of ["invalidated", "compliance_failed"] as const) {
      const { token } = await createSecurePayment(server);
      const ended = await server.call("PATCH", `/sandbox/secure-payments/${token}`, { body: { status } });
      expect(ended.body.status).toBe(status);
      const answer = await server.call("GET", `/v2/secure-payments/${token}`);
      problemErrors(answer, "/problems/secure-payment-not-payable", 403);
      expect(answer.body.detail).toContain(
        status === "invalidated" ? "was invalidated" : "compliance_failed",
      );
    }
  });

  it("answers 409 once every request of the link is paid, 200 while one is left", async () => {
    const { token, requestIds } = await createSecurePayment(server, [usdcOnBase("1"), usdcOnBase("2")]);
    await server.call("POST", `/sandbox/requests/${requestIds[0]}/payments`, { body: { outcome: "paid" } });
    expect((await server.call("GET", `/v2/secure-payments/${token}`)).status).toBe(200);
    await server.call("POST", `/sandbox/requests/${requestIds[1]}/payments`, { body: { outcome: "paid" } });
    const answer = await server.call("GET", `/v2/secure-payments/${token}`);
    problemErrors(answer, "/problems/secure-payment-completed", 409);
    expect(answer.body.detail).toBe(
      `The secure payment ${token} is already completed; there is nothing left to pay.`,
    );
  });

  it("answers 404 for an unknown token", async () => {
    const answer = await server.call("GET", "/v2/secure-payments/01KM9S346Q3D25VT4F5V37E3S3");
    problemErrors(answer, "/problems/not-found", 404);
  });

  it("is open to client IDs as well", async () => {
    const { token } = await createSecurePayment(server);
    expect((await server.call("GET", `/v2/secure-payments/${token}`, { auth: "clientId" })).status).toBe(200);
  });
});

describe("configuration", () => {
  it("takes the link lifetime and the hosted page URL from the config, keeping its query", async () => {
    const config = createDefaultConfig();
    config.securePaymentLifetimeSeconds = 3600;
    config.securePaymentPageUrl = "https://pay.example/checkout?lang=en";
    const configured = await startTestServer({ config });
    try {
      const { token, securePaymentUrl } = await createSecurePayment(configured);
      expect(securePaymentUrl).toBe(`https://pay.example/checkout?lang=en&token=${token}`);
      const details = await configured.call("GET", `/v2/secure-payments/${token}`);
      expect(details.body.expiresAt).toBe("2026-04-12T11:00:00.000Z");
    } finally {
      await configured.close();
    }
  });

  it("serves the hosted payment page at the link (its browser tests are in test/page)", async () => {
    const { securePaymentUrl } = await createSecurePayment(server);
    const page = await fetch(securePaymentUrl);
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('<meta name="payreq-client-id" content="pk_sandbox_7c41e2a9d5b8f036">');
    expect(html).toContain('<script type="module" src="/pay/assets/secure-payment.js"></script>');
  });
});
