import { getAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payee, payer, problemErrors, startTestServer, type TestServer } from "../../helpers.ts";

const spender = getAddress("0xdc8781ffab20fef4ab0472c3d6e50073b540ed9e");

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

describe("createSandboxRecurringPayment and getSandboxRecurringPayment (/sandbox/recurring-payments)", () => {
  it("answers 201 with the stored recurring payment", async () => {
    const answer = await server.call("POST", "/sandbox/recurring-payments", {
      body: { payer, payee, currency: "USDC-base", amount: "12.5", totalPayments: 4, spender },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      status: "active",
      currency: "USDC-base",
      amount: "12.5",
      totalPayments: 4,
      processedPayments: 0,
      spender,
      nextPaymentDate: null,
      createdAt: "2026-04-12T10:00:00.000Z",
    });
    expect(answer.body.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
  });

  it("refuses a next payment date that is a leap second or past the sandbox's range", async () => {
    const base = { payer, payee, currency: "USDC-base", amount: "1", totalPayments: 2, spender };
    for (const nextPaymentDate of ["2026-06-30T23:59:60Z", "9999-12-31T23:59:59.999Z"]) {
      const answer = await server.call("POST", "/sandbox/recurring-payments", {
        body: { ...base, nextPaymentDate },
      });
      expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
        {
          path: "/body/nextPaymentDate",
          message: `must be a sandbox instant such as 2026-04-12T10:00:00Z, got ${JSON.stringify(nextPaymentDate)}`,
        },
      ]);
    }
    expect(server.loggedErrors).toEqual([]);
  });

  it("refuses counts that do not fit the status, and non-ERC-20 currencies", async () => {
    const base = { payer, payee, currency: "USDC-base", amount: "1", spender };
    const completed = await server.call("POST", "/sandbox/recurring-payments", {
      body: { ...base, status: "completed", totalPayments: 8, processedPayments: 3 },
    });
    expect(problemErrors(completed, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/processedPayments",
        message: "must equal totalPayments (8) for a completed recurring payment, got 3",
      },
    ]);
    const active = await server.call("POST", "/sandbox/recurring-payments", {
      body: { ...base, status: "active", totalPayments: 2, processedPayments: 2 },
    });
    expect(problemErrors(active, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/processedPayments",
        message: "must be below totalPayments (2) for an active recurring payment, got 2",
      },
    ]);
    const native = await server.call("POST", "/sandbox/recurring-payments", {
      body: { ...base, currency: "ETH-base-base", totalPayments: 2 },
    });
    expect(problemErrors(native, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/currency",
        message: 'must be an ERC-20 currency the sandbox knows, got "ETH-base-base"',
      },
    ]);
  });
});
