import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDefaultConfig } from "../../src/server/index.ts";
import { payee, problemErrors, startTestServer, type TestServer } from "./helpers.ts";

// What the service's own invoicing app sends: a whole database row, lower-case codes and members
// the service does not know, which it ignores.
const registration = {
  clientUserId: "ada@example.com",
  email: "ada@example.com",
  firstName: "Ada",
  lastName: "Lovelace",
  beneficiaryType: "individual",
  dateOfBirth: "1985-12-10",
  addressLine1: "12 St James's Square",
  city: "London",
  state: "LND",
  postcode: "SW1Y 4JH",
  country: "gb",
  nationality: "gb",
  phone: "+442071234567",
  ssn: "QQ123456C",
};
const databaseRow = {
  id: "01JZ3Q5V6W7X8Y9Z0A1B2C3D4E",
  userId: "user_42",
  bankName: "Chase",
  accountName: "Ada Lovelace",
  accountNumber: "253009233489",
  routingNumber: "026013356",
  accountType: "checking",
  beneficiaryType: "individual",
  dateOfBirth: "1985-12-10",
  addressLine1: "24 Theatre St.",
  city: "Paramount",
  state: "CA",
  postalCode: "90723",
  country: "us",
  rails: "local",
  currency: "usd",
  gender: "female",
  phone: "+13105550100",
  nationality: "gb",
  neighbourhood: "Downtown",
  activity: "consulting",
  createdAt: "2026-04-01T09:00:00.000Z",
  updatedAt: "2026-04-01T09:00:00.000Z",
};

describe("createPaymentDetails and registerPayer bodies, by default", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("ignore members the spec does not describe and store codes in upper case", async () => {
    const registered = await server.call("POST", "/v2/payer", { body: { ...registration, referrer: "x" } });
    expect(registered.status).toBe(200);
    const created = await server.call(
      "POST",
      `/v1/payer/${encodeURIComponent("ada@example.com")}/payment-details`,
      {
        body: databaseRow,
      },
    );
    expect(created.status).toBe(201);
    expect(created.body.payment_detail).toEqual({
      id: expect.any(String),
      clientUserId: "ada@example.com",
      bankName: "Chase",
      accountName: "Ada Lovelace",
      currency: "USD",
      beneficiaryType: "individual",
    });
    const stored = await server.server.store.paymentDetails.get(created.body.payment_detail.id);
    expect(stored).toMatchObject({ currency: "USD" });
    expect(Object.keys(stored ?? {})).not.toContain("gender");
  });

  it("accept an invoice currency in any case and store it upper case", async () => {
    const answer = await server.call("POST", "/v2/secure-payments", {
      body: {
        requests: [{ payee, amount: "10", invoiceCurrency: "eur", paymentCurrency: "usdc-base", note: "x" }],
      },
    });
    expect(answer.status).toBe(201);
    const request = await server.server.store.requests.get(answer.body.requestIds[0]);
    expect(request).toMatchObject({
      invoiceCurrency: "EUR",
      paymentCurrency: "USDC-base",
      expectedAmount: "12500000",
    });
  });
});

describe("createPaymentDetails and createSecurePayment bodies, with strictBodies", () => {
  let server: TestServer;
  beforeAll(async () => {
    const config = createDefaultConfig();
    config.strictBodies = true;
    server = await startTestServer({ config });
  });
  afterAll(() => server.close());

  it("are refused with 400 naming every unknown member, and nothing is stored", async () => {
    await server.call("POST", "/v2/payer", { body: registration });
    const refused = await server.call(
      "POST",
      `/v1/payer/${encodeURIComponent("ada@example.com")}/payment-details`,
      { body: databaseRow },
    );
    expect(
      problemErrors(refused, "/problems/validation-failed", 400)
        .map((issue) => issue.path)
        .sort(),
    ).toEqual(
      [
        "/body/id",
        "/body/userId",
        "/body/gender",
        "/body/phone",
        "/body/nationality",
        "/body/neighbourhood",
        "/body/activity",
        "/body/createdAt",
        "/body/updatedAt",
      ].sort(),
    );
    const nested = await server.call("POST", "/v2/secure-payments", {
      body: {
        requests: [{ payee, amount: "10", invoiceCurrency: "USD", paymentCurrency: "USDC-base", note: "x" }],
      },
    });
    expect(problemErrors(nested, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/requests/0/note",
        message:
          'is not a member the spec describes here: remove it (the server runs with strictBodies), got "x"',
      },
    ]);
  });
});
