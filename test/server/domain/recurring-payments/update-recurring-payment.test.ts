import { decodeFunctionData, getAddress, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findToken } from "../../../../src/chain/index.ts";
import { createDefaultConfig } from "../../../../src/server/index.ts";
import {
  payee,
  payer,
  problemErrors,
  schemaErrors,
  startTestServer,
  type TestServer,
} from "../../helpers.ts";

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
