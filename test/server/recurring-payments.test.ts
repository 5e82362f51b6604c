import { decodeFunctionData, getAddress, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findToken } from "../../src/chain/index.ts";
import { createDefaultConfig } from "../../src/server/index.ts";
import { payee, payer, problemErrors, schemaErrors, startTestServer, type TestServer } from "./helpers.ts";

const abi = parseAbi(["function approve(address spender, uint256 amount)"]);
const spender = getAddress("0xdc8781ffab20fef4ab0472c3d6e50073b540ed9e");
const usdc = findToken("USDC-base") as NonNullable<ReturnType<typeof findToken>>;
const otherKey = "sk_other_account_0000000001";

let server: TestServer;
beforeAll(async () => {
  const config = createDefaultConfig();
  config.accounts.push({
    id: "acct_other",
    apiKeys: [otherKey],
    webhookSecret: "whsec_other_account_01",
    clientIds: [],
  });
  server = await startTestServer({ config });
});
afterAll(() => server.close());

async function recurring(status: string, overrides: Record<string, unknown> = {}) {
  const answer = await server.call("POST", "/sandbox/recurring-payments", {
    body: {
      status,
      payer,
      payee,
      currency: "USDC-base",
      amount: "50",
      totalPayments: 8,
      processedPayments: status === "completed" ? 8 : 3,
      spender,
      nextPaymentDate: "2026-05-01T09:00:00.000Z",
      ...overrides,
    },
  });
  if (answer.status !== 201) throw new Error(answer.text);
  return answer.body as { id: string };
}

const update = (id: string, action: string) =>
  server.call("PATCH", `/v2/payouts/recurring/${id}`, { body: { action } });

describe("updateRecurringPayment (PATCH /v2/payouts/recurring/{id})", () => {
  it("cancels an active one, answering the allowance reset and what remains", async () => {
    const { id } = await recurring("active");
    const answer = await update(id, "cancel");
    expect(answer.status).toBe(200);
    expect(schemaErrors("RecurringPayment", answer.body)).toBe("");
    expect(answer.body).toEqual({
      id,
      status: "cancelled",
      transactions: [
        {
          to: usdc.address,
          data: "0x095ea7b3000000000000000000000000dc8781ffab20fef4ab0472c3d6e50073b540ed9e0000000000000000000000000000000000000000000000000000000000000000",
          value: "0x0",
        },
      ],
      metadata: {
        remainingPayments: 5,
        remainingAmount: "250000000",
        processedPayments: 3,
        totalPayments: 8,
      },
    });
    expect(decodeFunctionData({ abi, data: answer.body.transactions[0].data }).args).toEqual([spender, 0n]);
    const stored = await server.call("GET", `/sandbox/recurring-payments/${id}`);
    expect(stored.body.status).toBe("cancelled");
  });

  it("cancels a paused one", async () => {
    const { id } = await recurring("paused");
    expect((await update(id, "cancel")).body.status).toBe("cancelled");
  });

  it("refuses to cancel a cancelled or completed one, changing nothing", async () => {
    const { id } = await recurring("active");
    await update(id, "cancel");
    const again = await update(id, "cancel");
    problemErrors(again, "/problems/invalid-state", 400);
    expect(again.body.detail).toBe(
      `Recurring payment ${id} is already cancelled; there is nothing left to cancel.`,
    );

    const completed = await recurring("completed");
    const answer = await update(completed.id, "cancel");
    problemErrors(answer, "/problems/invalid-state", 400);
    expect(answer.body.detail).toBe(
      `Recurring payment ${completed.id} is completed (8 of 8 payments executed) and cannot be cancelled.`,
    );
    expect((await server.call("GET", `/sandbox/recurring-payments/${completed.id}`)).body.status).toBe(
      "completed",
    );
  });

  it("unpauses a paused one, answering the next payment date", async () => {
    const { id } = await recurring("paused");
    const answer = await update(id, "unpause");
    expect(answer.body).toEqual({
      id,
      status: "active",
      metadata: { processedPayments: 3, totalPayments: 8, nextPaymentDate: "2026-05-01T09:00:00.000Z" },
    });
  });

  it("schedules the next payment no earlier than now when the due date has passed", async () => {
    const { id } = await recurring("paused", { nextPaymentDate: "2026-03-01T09:00:00.000Z" });
    const answer = await update(id, "unpause");
    expect(answer.body.metadata.nextPaymentDate).toBe("2026-04-12T10:00:00.000Z");
  });

  it("refuses to unpause anything not paused", async () => {
    for (const status of ["active", "completed", "cancelled"]) {
      const { id } = await recurring(status);
      const answer = await update(id, "unpause");
      problemErrors(answer, "/problems/invalid-state", 400);
      expect(answer.body.detail).toBe(
        `Recurring payment ${id} is ${status}, not paused; unpause applies only to a paused recurring payment.`,
      );
    }
  });

  it("answers 404 for an unknown id and for another account's recurring payment", async () => {
    problemErrors(await update("01JXYJKCAHGFTDR15F2D072ESG", "cancel"), "/problems/not-found", 404);
    const { id } = await recurring("active");
    const foreign = await server.call("PATCH", `/v2/payouts/recurring/${id}`, {
      auth: "none",
      headers: { "x-api-key": otherKey },
      body: { action: "cancel" },
    });
    problemErrors(foreign, "/problems/not-found", 404);
  });

  it("refuses an unknown action by name", async () => {
    const { id } = await recurring("active");
    const answer = await update(id, "pause");
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/action",
        message: 'must be equal to one of the allowed values: cancel, unpause, got "pause"',
      },
    ]);
  });

  it("accepts client IDs of the same account", async () => {
    const { id } = await recurring("paused");
    const answer = await server.call("PATCH", `/v2/payouts/recurring/${id}`, {
      auth: "clientId",
      body: { action: "unpause" },
    });
    expect(answer.body.status).toBe("active");
  });
});

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
