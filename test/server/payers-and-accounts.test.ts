import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleCredentials } from "../../src/server/index.ts";
import { asOtherAccount, bankAccount, configWithOtherAccount, payerRegistration } from "./fixtures.ts";
import {
  browserOrigin,
  createSecurePayment,
  feeAddress,
  payer,
  problemErrors,
  schemaErrors,
  startTestServer,
  type TestServer,
  usdcOnBase,
} from "./helpers.ts";

const registration = payerRegistration("cust-20931");

let server: TestServer;
beforeAll(async () => {
  const config = configWithOtherAccount([
    {
      id: "cid_other",
      clientId: "pk_other_0000000001",
      label: "Other",
      allowedDomains: ["https://other.example"],
    },
  ]);
  server = await startTestServer({ config });
});
afterAll(() => server.close());

describe("registerPayer (POST /v2/payer)", () => {
  it("registers a payer with the agreement pending and the KYC initiated, answering 200 with sandbox page links", async () => {
    const answer = await server.call("POST", "/v2/payer", { body: registration });
    expect(answer.status).toBe(200);
    expect(schemaErrors("PayerComplianceStatus", answer.body)).toBe("");
    const { userId } = answer.body;
    expect(userId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(answer.body).toEqual({
      agreementUrl: `${server.url}/pages/agreement/${userId}`,
      kycUrl: `${server.url}/pages/kyc/${userId}`,
      userId,
      status: { agreementStatus: "pending", kycStatus: "initiated" },
    });
    const kycPage = await fetch(answer.body.kycUrl);
    expect(kycPage.status).toBe(200);
    expect(await kycPage.text()).toContain(`payer <code>${userId}</code>`);
    const again = await server.call("POST", "/v2/payer", { body: registration });
    expect(again.body.userId).toBe(userId);
  });

  it("keeps payers apart per account", async () => {
    const mine = await server.call("POST", "/v2/payer", {
      body: { ...registration, clientUserId: "shared-id" },
    });
    const theirs = await server.call("POST", "/v2/payer", {
      ...asOtherAccount,
      body: { ...registration, clientUserId: "shared-id" },
    });
    expect(theirs.body.userId).not.toBe(mine.body.userId);
  });

  it("names invalid fields", async () => {
    const answer = await server.call("POST", "/v2/payer", {
      body: { ...registration, country: "DEU", phone: "0151 234" },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400).map((error) => error.path)).toEqual([
      "/body/country",
      "/body/country",
      "/body/phone",
    ]);
  });
});

describe("createPaymentDetails (POST /v1/payer/{clientUserId}/payment-details)", () => {
  it("stores a bank account of a registered payer, answering 201 with its summary", async () => {
    await server.call("POST", "/v2/payer", { body: { ...registration, clientUserId: "cust-1" } });
    const answer = await server.call("POST", "/v1/payer/cust-1/payment-details", { body: bankAccount });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      payment_detail: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        clientUserId: "cust-1",
        bankName: "Musterbank Berlin",
        accountName: "Erika Mustermann",
        currency: "EUR",
        beneficiaryType: "individual",
      },
    });
    expect(answer.text).not.toContain("DE89370400440532013000");
  });

  it("answers 404 for a payer that is not registered (with this account)", async () => {
    await server.call("POST", "/v2/payer", { body: { ...registration, clientUserId: "cust-2" } });
    const unknown = await server.call("POST", "/v1/payer/cust-nobody/payment-details", { body: bankAccount });
    problemErrors(unknown, "/problems/not-found", 404);
    expect(unknown.body.detail).toBe(
      "No payer is registered under clientUserId 'cust-nobody'; register it with POST /v2/payer first.",
    );
    const foreign = await server.call("POST", "/v1/payer/cust-2/payment-details", {
      ...asOtherAccount,
      body: bankAccount,
    });
    problemErrors(foreign, "/problems/not-found", 404);
  });
});

describe("getClientId (GET /v2/client-ids/{id})", () => {
  it("answers the caller's own client ID, with `self` read as the server's origin", async () => {
    const answer = await server.call("GET", `/v2/client-ids/${sampleCredentials.clientIdRecordId}`);
    expect(answer.status).toBe(200);
    expect(schemaErrors("ClientId", answer.body)).toBe("");
    expect(answer.body).toMatchObject({
      id: sampleCredentials.clientIdRecordId,
      clientId: sampleCredentials.clientId,
      allowedDomains: [browserOrigin, server.url],
      feePercentage: null,
      feeAddress: null,
      status: "active",
      createdAt: "2026-04-12T10:00:00.000Z",
    });
    expect("accountId" in answer.body).toBe(false);
  });

  it("answers 404 for another account's client ID and for an unknown one", async () => {
    problemErrors(await server.call("GET", "/v2/client-ids/cid_other"), "/problems/not-found", 404);
    problemErrors(await server.call("GET", "/v2/client-ids/cid_nope"), "/problems/not-found", 404);
    expect((await server.call("GET", "/v2/client-ids/cid_other", asOtherAccount)).body.clientId).toBe(
      "pk_other_0000000001",
    );
  });
});

describe("listPaymentRoutes (GET /v1/request/{paymentReference}/routes)", () => {
  it("offers the direct payment in the request's token and network, with or without 0x", async () => {
    const { requestIds } = await createSecurePayment(server, [usdcOnBase()]);
    const reference = (await server.server.store.getRequest(requestIds[0] as string))
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
    const reference = (await server.server.store.getRequest(requestIds[0] as string))
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
