import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asOtherAccount, bankAccount, configWithOtherAccount, payerRegistration } from "../../fixtures.ts";
import { problemErrors, startTestServer, type TestServer } from "../../helpers.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ config: configWithOtherAccount() });
});
afterAll(() => server.close());

describe("registerPayerV1 (POST /v1/payer)", () => {
  it("registers the same payer as POST /v2/payer: either path answers the one registration", async () => {
    const registration = payerRegistration("v1-cust-1");
    const v1 = await server.call("POST", "/v1/payer", { body: registration });
    expect(v1.status).toBe(200);
    const v2 = await server.call("POST", "/v2/payer", { body: registration });
    expect(v2.body).toEqual(v1.body);
    const read = await server.call("GET", "/v2/payer/v1-cust-1");
    expect(read.body.userId).toBe(v1.body.userId);
  });

  it("requires the API key and names invalid fields", async () => {
    const registration = payerRegistration("v1-cust-2");
    const byClientId = await server.call("POST", "/v1/payer", { body: registration, auth: "clientId" });
    expect(byClientId.status).toBe(401);
    const invalid = await server.call("POST", "/v1/payer", { body: { ...registration, nationality: "DEU" } });
    const paths = problemErrors(invalid, "/problems/validation-failed", 400).map((issue) => issue.path);
    expect(new Set(paths)).toEqual(new Set(["/body/nationality"]));
  });
});

describe("getPayerComplianceStatusV1 (GET /v1/payer/{clientUserId})", () => {
  it("answers what GET /v2/payer/{clientUserId} answers, and 404 for another account's payer", async () => {
    await server.call("POST", "/v2/payer", { body: payerRegistration("v1-cust-3") });
    const v1 = await server.call("GET", "/v1/payer/v1-cust-3");
    const v2 = await server.call("GET", "/v2/payer/v1-cust-3");
    expect(v1.status).toBe(200);
    expect(v1.body).toEqual(v2.body);
    const foreign = await server.call("GET", "/v1/payer/v1-cust-3", asOtherAccount);
    problemErrors(foreign, "/problems/not-found", 404);
  });
});

describe("updatePayerComplianceStatusV1 (PATCH /v1/payer/{clientUserId})", () => {
  it("records the agreement on the payer both paths read", async () => {
    await server.call("POST", "/v1/payer", { body: payerRegistration("v1-cust-4") });
    const update = await server.call("PATCH", "/v1/payer/v1-cust-4", { body: { agreementCompleted: true } });
    expect(update.status).toBe(200);
    expect(update.body).toEqual({ success: true });
    const read = await server.call("GET", "/v2/payer/v1-cust-4");
    expect(read.body.agreementStatus).toBe("completed");
    const withdraw = await server.call("PATCH", "/v1/payer/v1-cust-4", {
      body: { agreementCompleted: false },
    });
    problemErrors(withdraw, "/problems/invalid-state", 400);
  });
});

describe("listPaymentDetailsV1 (GET /v1/payer/{clientUserId}/payment-details)", () => {
  it("lists the bank accounts stored on either path, as the v2 path lists them", async () => {
    await server.call("POST", "/v1/payer", { body: payerRegistration("v1-cust-5") });
    const first = await server.call("POST", "/v1/payer/v1-cust-5/payment-details", { body: bankAccount });
    const second = await server.call("POST", "/v2/payer/v1-cust-5/payment-details", { body: bankAccount });
    expect([first.status, second.status]).toEqual([201, 201]);
    const v1 = await server.call("GET", "/v1/payer/v1-cust-5/payment-details");
    const v2 = await server.call("GET", "/v2/payer/v1-cust-5/payment-details");
    expect(v1.status).toBe(200);
    expect(v1.body).toEqual(v2.body);
    expect(v1.body.paymentDetails.map((detail: { id: string }) => detail.id)).toEqual([
      first.body.payment_detail.id,
      second.body.payment_detail.id,
    ]);
    const one = await server.call(
      "GET",
      `/v1/payer/v1-cust-5/payment-details?paymentDetailsId=${second.body.payment_detail.id}`,
    );
    expect(one.body.paymentDetails.map((detail: { id: string }) => detail.id)).toEqual([
      second.body.payment_detail.id,
    ]);
    const foreign = await server.call("GET", "/v1/payer/v1-cust-5/payment-details", asOtherAccount);
    problemErrors(foreign, "/problems/not-found", 404);
  });
});
