import { decodeFunctionData } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readTypedData } from "../../../../src/wire/typed-data.ts";
import {
  asOtherAccount,
  problemErrors,
  startTestServerWithOtherAccount,
  type TestServer,
} from "../../helpers.ts";
import {
  approveAbi,
  baseProxy,
  createRecurring,
  monthly,
  subscriber,
} from "../../recurring-payout-support.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServerWithOtherAccount();
});
afterAll(() => server.close());

describe("getRecurringPaymentStatus (GET /v2/payouts/recurring/{id})", () => {
  it("follows the executions: each period's request and payment, a failure that pauses it, then completion", async () => {
    const { id, recurringPaymentPermit } = await createRecurring(server, {
      ...monthly(),
      recurrence: { ...monthly().recurrence, totalPayments: 2 },
    });
    const permitSignature = await subscriber.signTypedData(readTypedData(recurringPaymentPermit) as never);
    await server.call("POST", `/v2/payouts/recurring/${id}`, { body: { permitSignature } });
    const execute = (body: Record<string, unknown>) =>
      server.call("POST", `/sandbox/recurring-payments/${id}/executions`, { body });

    const first = `0x${"01".repeat(32)}`;
    expect((await execute({ outcome: "success", txHash: first })).status).toBe(201);
    const afterFirst = await server.call("GET", `/v2/payouts/recurring/${id}`, { auth: "clientId" });
    expect(afterFirst.body).toMatchObject({
      id,
      status: "active",
      processedPayments: 1,
      totalPayments: 2,
      lastPaymentDate: "2026-04-12T10:00:00.000Z",
      nextPaymentDate: "2026-05-31T00:00:00.000Z",
      payments: [{ amount: "50", txHash: first, timestamp: "2026-04-12T10:00:00.000Z" }],
    });
    expect(afterFirst.body.requests).toHaveLength(1);
    expect(afterFirst.body.payments[0].requestId).toBe(afterFirst.body.requests[0].requestId);

    await execute({ outcome: "failure", subStatus: "insufficient_funds" });
    const paused = await server.call("GET", `/v2/payouts/recurring/${id}`);
    expect(paused.body).toMatchObject({
      status: "paused",
      processedPayments: 1,
      nextPaymentDate: null,
      failureCount: 1,
      failureReason: "insufficient_funds",
    });
    expect(paused.body.requests).toHaveLength(2);

    await server.call("PATCH", `/v2/payouts/recurring/${id}`, { body: { action: "unpause" } });
    const second = `0x${"02".repeat(32)}`;
    await execute({ outcome: "success", txHash: second });
    const done = await server.call("GET", `/v2/payouts/recurring/${id}`);
    expect(done.body).toMatchObject({ status: "completed", processedPayments: 2, nextPaymentDate: null });
    expect(done.body.requests).toHaveLength(2);
    expect(done.body.payments.map((payment: { txHash: string }) => payment.txHash)).toEqual([first, second]);
    expect(done.body).not.toHaveProperty("failureCount");
    const period = await server.call("GET", `/v2/request/${done.body.requests[1].requestId}`);
    expect(period.body).toMatchObject({ hasBeenPaid: true, txHash: second });
  });

  it("answers 404 for another account's recurring payment", async () => {
    const { id } = await createRecurring(server);
    problemErrors(
      await server.call("GET", `/v2/payouts/recurring/${id}`, asOtherAccount),
      "/problems/not-found",
      404,
    );
  });

  it("lets a pending recurring payment be cancelled, with the approval reset", async () => {
    const { id } = await createRecurring(server);
    const cancelled = await server.call("PATCH", `/v2/payouts/recurring/${id}`, {
      body: { action: "cancel" },
    });
    expect(cancelled.body).toMatchObject({ id, status: "cancelled", metadata: { remainingPayments: 12 } });
    expect(decodeFunctionData({ abi: approveAbi, data: cancelled.body.transactions[0].data }).args).toEqual([
      baseProxy,
      0n,
    ]);
  });
});
