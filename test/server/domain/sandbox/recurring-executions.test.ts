import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payee, payer, problemErrors, schemaErrors, type TestServer } from "../../helpers.ts";
import { registerEndpoint, startWebhookServer } from "../../webhooks/harness.ts";
import { type Receiver, startReceiver } from "../../webhooks/receiver.ts";

let server: TestServer;
let hook: Receiver;
beforeAll(async () => {
  hook = await startReceiver();
  server = await startWebhookServer();
  await registerEndpoint(server, hook.url);
});
afterAll(async () => {
  await server.close();
  await hook.close();
});

async function createRecurringPayment(totalPayments: number, nextPaymentDate?: string): Promise<string> {
  const answer = await server.call("POST", "/sandbox/recurring-payments", {
    body: {
      payer,
      payee,
      currency: "USDC-base",
      amount: "50",
      totalPayments,
      spender: "0xdc8781ffab20fef4ab0472c3d6e50073b540ed9e",
      ...(nextPaymentDate ? { nextPaymentDate } : {}),
    },
  });
  if (answer.status !== 201) throw new Error(`recurring payment creation failed: ${answer.text}`);
  return answer.body.id;
}

async function execute(id: string, body: Record<string, unknown>) {
  const answer = await server.call("POST", `/sandbox/recurring-payments/${id}/executions`, { body });
  await server.server.webhooks.settled();
  return answer;
}

const payloads = () => hook.received.map((webhook) => JSON.parse(webhook.body.toString("utf8")));

describe("executeSandboxRecurringPayment (executing a recurring payment)", () => {
  it("pauses on failure with payment.failed, then pays the same period's request with payment.confirmed", async () => {
    const id = await createRecurringPayment(2, "2026-05-01T09:00:00.000Z");
    const before = hook.received.length;

    const failed = await execute(id, { outcome: "failure" });
    expect(failed.status).toBe(201);
    expect(schemaErrors("SandboxRecurringPaymentExecution", failed.body)).toBe("");
    const requestId: string = failed.body.request.requestId;
    expect(failed.body).toMatchObject({
      outcome: "failure",
      recurringPayment: {
        id,
        status: "paused",
        processedPayments: 0,
        nextPaymentDate: "2026-05-01T09:00:00.000Z",
      },
      request: {
        status: "failed",
        payee,
        amount: "50",
        invoiceCurrency: "USDC-base",
        paymentCurrency: "USDC-base",
        expectedAmount: "50",
        amountPaid: "0",
        securePayment: null,
      },
    });
    expect(
      failed.body.request.payments.map((p: Record<string, unknown>) => [p.outcome, p.subStatus]),
    ).toEqual([["failed", "insufficient_funds"]]);

    const whilePaused = await execute(id, { outcome: "success" });
    expect(problemErrors(whilePaused, "/problems/invalid-state", 400)).toEqual([]);
    expect(whilePaused.body.detail).toBe(
      `Recurring payment ${id} is paused, not active: unpause it first with PATCH /v2/payouts/recurring/{id} (0 of 2 payments executed).`,
    );

    expect(
      (await server.call("PATCH", `/v2/payouts/recurring/${id}`, { body: { action: "unpause" } })).status,
    ).toBe(200);
    const paid = await execute(id, { outcome: "success" });
    expect(paid.status).toBe(201);
    expect(paid.body.request).toMatchObject({ requestId, status: "paid", amountPaid: "50" });
    expect(paid.body.recurringPayment).toMatchObject({ status: "active", processedPayments: 1 });

    const sent = payloads().slice(before);
    expect(sent.map((payload) => [payload.event, payload.requestId])).toEqual([
      ["payment.failed", requestId],
      ["payment.confirmed", requestId],
    ]);
    expect(sent[1]).toMatchObject({
      amount: "50",
      totalAmountPaid: "50",
      expectedAmount: "50",
      currency: "USDC",
      paymentCurrency: "USDC",
      network: "base",
    });

    // The last period gets a request of its own and completes the schedule.
    const last = await execute(id, { outcome: "success" });
    expect(last.body.request.requestId).not.toBe(requestId);
    expect(last.body.recurringPayment).toMatchObject({
      status: "completed",
      processedPayments: 2,
      nextPaymentDate: null,
    });
    expect(payloads().at(-1)).toMatchObject({
      event: "payment.confirmed",
      requestId: last.body.request.requestId,
    });
    const afterEnd = await execute(id, { outcome: "success" });
    expect(afterEnd.body.detail).toBe(
      `Recurring payment ${id} is completed, not active: it has no next payment (2 of 2 payments executed).`,
    );
  });

  it("refuses a reason for a success, and unknown recurring payments", async () => {
    const id = await createRecurringPayment(3);
    const withReason = await execute(id, { outcome: "success", subStatus: "insufficient_funds" });
    expect(problemErrors(withReason, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/subStatus", message: "is only allowed for a failure outcome" },
    ]);
    problemErrors(
      await execute("01JXYJKCAHGFTDR15F2D072ESG", { outcome: "success" }),
      "/problems/not-found",
      404,
    );
    const unchanged = await server.call("GET", `/sandbox/recurring-payments/${id}`);
    expect(unchanged.body).toMatchObject({ status: "active", processedPayments: 0 });
  });
});
