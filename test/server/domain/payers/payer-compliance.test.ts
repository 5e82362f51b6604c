import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asOtherAccount, bankAccount, configWithOtherAccount, payerRegistration } from "../../fixtures.ts";
import {
  problemErrors,
  schemaErrors,
  startInstant,
  startTestServer,
  type TestServer,
} from "../../helpers.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ config: configWithOtherAccount() });
});
afterAll(() => server.close());

async function register(clientUserId: string): Promise<string> {
  const answer = await server.call("POST", "/v2/payer", { body: payerRegistration(clientUserId) });
  expect(answer.status).toBe(200);
  return answer.body.userId;
}

/** The payloads of one payer's `event` webhook events, oldest first, as the outbox holds them. */
async function payerWebhooks(event: "compliance.updated" | "payment_detail.updated", clientUserId: string) {
  const events = await server.server.store.listEvents();
  return events
    .filter((entry) => entry.type === event)
    .map(
      (entry): Record<string, unknown> => ({
        accountId: entry.data.accountId,
        ...(entry.data.payload as object),
      }),
    )
    .filter((payload) => payload.clientUserId === clientUserId);
}

/** The `compliance.updated` payloads of one payer, oldest first. */
const complianceEvents = (clientUserId: string) => payerWebhooks("compliance.updated", clientUserId);

describe("getPayerComplianceStatus (GET /v2/payer/{clientUserId})", () => {
  it("answers a new payer's statuses at the top level: agreement pending, KYC initiated, the same links", async () => {
    const registered = await server.call("POST", "/v2/payer", { body: payerRegistration("read-1") });
    const { userId } = registered.body;
    const answer = await server.call("GET", "/v2/payer/read-1");
    expect(answer.status).toBe(200);
    expect(schemaErrors("PayerCompliance", answer.body)).toBe("");
    expect(answer.body).toEqual({
      userId,
      agreementStatus: "pending",
      kycStatus: "initiated",
      isCompliant: false,
      agreementUrl: registered.body.agreementUrl,
      kycUrl: registered.body.kycUrl,
    });
    expect(registered.body).toMatchObject({
      status: { agreementStatus: "not_started", kycStatus: "not_started" },
      agreementStatus: "pending",
      kycStatus: "initiated",
      isCompliant: false,
    });
  });

  it("answers 404 for a clientUserId nobody registered and for another account's payer", async () => {
    await register("read-2");
    const unknown = await server.call("GET", "/v2/payer/nobody-here");
    problemErrors(unknown, "/problems/not-found", 404);
    expect(unknown.body.detail).toBe(
      "No payer is registered under clientUserId 'nobody-here'; register it with POST /v2/payer first.",
    );
    problemErrors(await server.call("GET", "/v2/payer/read-2", asOtherAccount), "/problems/not-found", 404);
  });

  it("reads clientUserIds that need encoding, such as an email address", async () => {
    const userId = await register("erika+pay@example.com");
    const answer = await server.call("GET", `/v2/payer/${encodeURIComponent("erika+pay@example.com")}`);
    expect(answer.body.userId).toBe(userId);
  });

  it("refuses a client ID: the operation requires the API key", async () => {
    problemErrors(
      await server.call("GET", "/v2/payer/read-1", { auth: "clientId" }),
      "/problems/unauthorized",
      401,
    );
  });
});

describe("updatePayerComplianceStatus (PATCH /v2/payer/{clientUserId})", () => {
  it("completes the agreement once, answers {success: true}, and announces each change", async () => {
    await register("agree-1");
    const answer = await server.call("PATCH", "/v2/payer/agree-1", { body: { agreementCompleted: true } });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: true });
    expect((await server.call("GET", "/v2/payer/agree-1")).body).toMatchObject({
      agreementStatus: "completed",
      kycStatus: "initiated",
      isCompliant: false,
    });
    const again = await server.call("PATCH", "/v2/payer/agree-1", { body: { agreementCompleted: true } });
    expect(again.body).toEqual({ success: true });
    // Registration and the accepted agreement each send compliance.updated; the repeat sends nothing.
    expect(await complianceEvents("agree-1")).toEqual([
      {
        accountId: "acct_sandbox",
        event: "compliance.updated",
        clientUserId: "agree-1",
        kycStatus: "initiated",
        agreementStatus: "pending",
        isCompliant: false,
        timestamp: startInstant,
      },
      {
        accountId: "acct_sandbox",
        event: "compliance.updated",
        clientUserId: "agree-1",
        kycStatus: "initiated",
        agreementStatus: "completed",
        isCompliant: false,
        timestamp: startInstant,
      },
    ]);
  });

  it("records nothing for false while the agreement is open, and refuses false once it is completed", async () => {
    await register("agree-2");
    const open = await server.call("PATCH", "/v2/payer/agree-2", { body: { agreementCompleted: false } });
    expect(open.body).toEqual({ success: true });
    expect((await server.call("GET", "/v2/payer/agree-2")).body.agreementStatus).toBe("pending");
    await server.call("PATCH", "/v2/payer/agree-2", { body: { agreementCompleted: true } });
    const withdrawn = await server.call("PATCH", "/v2/payer/agree-2", {
      body: { agreementCompleted: false },
    });
    problemErrors(withdrawn, "/problems/invalid-state", 400);
    expect(withdrawn.body.detail).toBe(
      "Payer 'agree-2' has already completed the agreement; agreementCompleted false cannot withdraw it.",
    );
    expect((await server.call("GET", "/v2/payer/agree-2")).body.agreementStatus).toBe("completed");
  });

  it("names a missing or mistyped agreementCompleted, and answers 404 for an unknown or foreign payer", async () => {
    await register("agree-3");
    const missing = await server.call("PATCH", "/v2/payer/agree-3", { body: {} });
    expect(problemErrors(missing, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/agreementCompleted", message: "must have required property 'agreementCompleted'" },
    ]);
    const mistyped = await server.call("PATCH", "/v2/payer/agree-3", { body: { agreementCompleted: "yes" } });
    expect(problemErrors(mistyped, "/problems/validation-failed", 400).map((error) => error.path)).toEqual([
      "/body/agreementCompleted",
    ]);
    problemErrors(
      await server.call("PATCH", "/v2/payer/nobody", { body: { agreementCompleted: true } }),
      "/problems/not-found",
      404,
    );
    problemErrors(
      await server.call("PATCH", "/v2/payer/agree-3", {
        ...asOtherAccount,
        body: { agreementCompleted: true },
      }),
      "/problems/not-found",
      404,
    );
    expect((await server.call("GET", "/v2/payer/agree-3")).body.agreementStatus).toBe("pending");
  });
});

describe("updateSandboxPayer (PATCH /sandbox/payers/{clientUserId})", () => {
  it("decides the KYC; approved with a completed agreement makes the payer compliant", async () => {
    await register("kyc-1");
    const pending = await server.call("PATCH", "/sandbox/payers/kyc-1", { body: { kycStatus: "pending" } });
    expect(pending.status).toBe(200);
    expect(pending.body).toMatchObject({
      kycStatus: "pending",
      agreementStatus: "pending",
      isCompliant: false,
    });
    const approved = await server.call("PATCH", "/sandbox/payers/kyc-1", { body: { kycStatus: "approved" } });
    expect(approved.body).toMatchObject({ kycStatus: "approved", isCompliant: false });
    await server.call("PATCH", "/v2/payer/kyc-1", { body: { agreementCompleted: true } });
    expect((await server.call("GET", "/v2/payer/kyc-1")).body).toMatchObject({
      agreementStatus: "completed",
      kycStatus: "approved",
      isCompliant: true,
    });
    expect((await complianceEvents("kyc-1")).map((data) => [data.kycStatus, data.isCompliant])).toEqual([
      ["initiated", false],
      ["pending", false],
      ["approved", false],
      ["approved", true],
    ]);
  });

  it("refuses to change a final decision, and names an unknown status", async () => {
    await register("kyc-2");
    await server.call("PATCH", "/sandbox/payers/kyc-2", { body: { kycStatus: "rejected" } });
    const again = await server.call("PATCH", "/sandbox/payers/kyc-2", { body: { kycStatus: "approved" } });
    problemErrors(again, "/problems/invalid-state", 400);
    expect(again.body.detail).toBe(
      "Payer 'kyc-2' has kycStatus rejected, which is final; only initiated, pending or retry_required can change.",
    );
    const unknown = await server.call("PATCH", "/sandbox/payers/kyc-2", { body: { kycStatus: "completed" } });
    expect(problemErrors(unknown, "/problems/validation-failed", 400).map((error) => error.path)).toEqual([
      "/body/kycStatus",
    ]);
    problemErrors(
      await server.call("PATCH", "/sandbox/payers/kyc-2", {
        ...asOtherAccount,
        body: { kycStatus: "pending" },
      }),
      "/problems/not-found",
      404,
    );
  });
});

describe("createPaymentDetailsV2 (POST /v2/payer/{clientUserId}/payment-details)", () => {
  it("stores the account like the v1 path; both paths' accounts are listed together", async () => {
    const userId = await register("bank-1");
    const v2 = await server.call("POST", "/v2/payer/bank-1/payment-details", { body: bankAccount });
    expect(v2.status).toBe(201);
    expect(v2.body).toEqual({
      payment_detail: {
        id: expect.stringMatching(/^[0-9a-f-]{36}$/),
        clientUserId: "bank-1",
        bankName: "Musterbank Berlin",
        accountName: "Erika Mustermann",
        currency: "EUR",
        beneficiaryType: "individual",
      },
    });
    const v1 = await server.call("POST", "/v1/payer/bank-1/payment-details", {
      body: { ...bankAccount, bankName: "Second Bank", currency: "USD", rails: "swift" },
    });
    expect(v1.status).toBe(201);
    const listed = await server.call("GET", "/v2/payer/bank-1/payment-details");
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      paymentDetails: [
        { ...v2.body.payment_detail, userId, status: "approved", rails: "local" },
        { ...v1.body.payment_detail, userId, status: "approved", rails: "swift" },
      ],
    });
    expect(listed.text).not.toContain("DE89370400440532013000");
    // The sandbox's provider approves each at once, which the payment_detail.updated webhook tells.
    expect(await payerWebhooks("payment_detail.updated", "bank-1")).toEqual([
      {
        accountId: "acct_sandbox",
        event: "payment_detail.updated",
        paymentDetailsId: v2.body.payment_detail.id,
        clientUserId: "bank-1",
        status: "approved",
        timestamp: startInstant,
      },
      {
        accountId: "acct_sandbox",
        event: "payment_detail.updated",
        paymentDetailsId: v1.body.payment_detail.id,
        clientUserId: "bank-1",
        status: "approved",
        timestamp: startInstant,
      },
    ]);
  });

  it("answers 404 for a payer that is not registered with the caller's account, storing nothing", async () => {
    await register("bank-2");
    const foreign = await server.call("POST", "/v2/payer/bank-2/payment-details", {
      ...asOtherAccount,
      body: bankAccount,
    });
    problemErrors(foreign, "/problems/not-found", 404);
    const unknown = await server.call("POST", "/v2/payer/bank-nobody/payment-details", { body: bankAccount });
    problemErrors(unknown, "/problems/not-found", 404);
    expect((await server.call("GET", "/v2/payer/bank-2/payment-details")).body).toEqual({
      paymentDetails: [],
    });
  });

  it("names each invalid field", async () => {
    await register("bank-3");
    const answer = await server.call("POST", "/v2/payer/bank-3/payment-details", {
      body: { ...bankAccount, country: "DEU", rails: "carrier-pigeon" },
    });
    expect(
      [
        ...new Set(problemErrors(answer, "/problems/validation-failed", 400).map((error) => error.path)),
      ].sort(),
    ).toEqual(["/body/country", "/body/rails"]);
  });
});

describe("listPaymentDetails (GET /v2/payer/{clientUserId}/payment-details)", () => {
  it("lists one account by paymentDetailsId, and answers 404 for an id the payer does not have", async () => {
    await register("list-1");
    await register("list-2");
    const first = await server.call("POST", "/v2/payer/list-1/payment-details", { body: bankAccount });
    const second = await server.call("POST", "/v2/payer/list-1/payment-details", { body: bankAccount });
    const theirs = await server.call("POST", "/v2/payer/list-2/payment-details", { body: bankAccount });
    const secondId = second.body.payment_detail.id as string;
    const one = await server.call("GET", `/v2/payer/list-1/payment-details?paymentDetailsId=${secondId}`);
    expect(one.body.paymentDetails.map((detail: { id: string }) => detail.id)).toEqual([secondId]);
    expect(first.body.payment_detail.id).not.toBe(secondId);
    const other = await server.call(
      "GET",
      `/v2/payer/list-1/payment-details?paymentDetailsId=${theirs.body.payment_detail.id}`,
    );
    problemErrors(other, "/problems/not-found", 404);
    expect(other.body.detail).toBe(
      `Payer 'list-1' has no payment details with id '${theirs.body.payment_detail.id}'.`,
    );
  });

  it("answers 404 for an unknown payer and for another account's", async () => {
    problemErrors(
      await server.call("GET", "/v2/payer/list-nobody/payment-details"),
      "/problems/not-found",
      404,
    );
    problemErrors(
      await server.call("GET", "/v2/payer/list-1/payment-details", asOtherAccount),
      "/problems/not-found",
      404,
    );
  });
});
