import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asOtherAccount, bankAccount, configWithOtherAccount, payerRegistration } from "../../fixtures.ts";
import { problemErrors, schemaErrors, startTestServer, type TestServer } from "../../helpers.ts";

const registration = payerRegistration("cust-20931");

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ config: configWithOtherAccount() });
});
afterAll(() => server.close());

describe("registerPayer (POST /v2/payer)", () => {
  it("answers a registered payer's completed steps as completed in status, the finer statuses at the top level", async () => {
    const clientUserId = "cust-complete-1";
    await server.call("POST", "/v2/payer", { body: payerRegistration(clientUserId) });
    await server.call("PATCH", `/v2/payer/${clientUserId}`, { body: { agreementCompleted: true } });
    const kyc = await server.call("PATCH", `/sandbox/payers/${clientUserId}`, {
      body: { kycStatus: "approved" },
    });
    expect(kyc.status, kyc.text).toBe(200);
    const again = await server.call("POST", "/v2/payer", { body: payerRegistration(clientUserId) });
    expect(again.body).toMatchObject({
      status: { agreementStatus: "completed", kycStatus: "completed" },
      agreementStatus: "completed",
      kycStatus: "approved",
      isCompliant: true,
    });
  });

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
      status: { agreementStatus: "not_started", kycStatus: "not_started" },
      agreementStatus: "pending",
      kycStatus: "initiated",
      isCompliant: false,
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
