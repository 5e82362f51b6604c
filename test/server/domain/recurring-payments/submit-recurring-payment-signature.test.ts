import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readTypedData } from "../../../../src/wire/typed-data.ts";
import {
  asOtherAccount,
  payee,
  problemErrors,
  startTestServerWithOtherAccount,
  type TestServer,
} from "../../helpers.ts";
import { baseProxy, createRecurring, monthly, stranger, subscriber } from "../../recurring-payout-support.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServerWithOtherAccount();
});
afterAll(() => server.close());

describe("submitRecurringPaymentSignature (POST /v2/payouts/recurring/{id})", () => {
  it("activates the recurring payment with the payer's signature of the permit, once", async () => {
    const { id, recurringPaymentPermit } = await createRecurring(server);
    const permitSignature = await subscriber.signTypedData(readTypedData(recurringPaymentPermit) as never);
    const answer = await server.call("POST", `/v2/payouts/recurring/${id}`, { body: { permitSignature } });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      id,
      status: "active",
      message: "Recurring payment activated successfully",
    });
    const status = await server.call("GET", `/v2/payouts/recurring/${id}`);
    expect(status.body).toMatchObject({ status: "active", nextPaymentDate: "2026-05-01T00:00:00.000Z" });

    const again = await server.call("POST", `/v2/payouts/recurring/${id}`, { body: { permitSignature } });
    problemErrors(again, "/problems/invalid-state", 400);
    expect(again.body.detail).toBe(
      `Recurring payment ${id} is active, not pending: its permit signature was already accepted.`,
    );
  });

  it("refuses another wallet's signature, and the payer's over other values, leaving it pending", async () => {
    const { id, recurringPaymentPermit } = await createRecurring(server);
    const typedData = readTypedData(recurringPaymentPermit);
    const byStranger = await stranger.signTypedData(typedData as never);
    const tampered = await subscriber.signTypedData({
      ...typedData,
      message: { ...typedData.message, amount: "1" },
    } as never);
    for (const permitSignature of [byStranger, tampered]) {
      const answer = await server.call("POST", `/v2/payouts/recurring/${id}`, { body: { permitSignature } });
      expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
        {
          path: "/body/permitSignature",
          message: `is not a signature of the recurring payment permit by the payer ${subscriber.address}`,
        },
      ]);
    }
    const notASignature = `0x${"ab".repeat(64)}05`;
    const garbled = await server.call("POST", `/v2/payouts/recurring/${id}`, {
      body: { permitSignature: notASignature },
    });
    expect(problemErrors(garbled, "/problems/validation-failed", 400)[0]?.path).toBe("/body/permitSignature");
    expect((await server.call("GET", `/v2/payouts/recurring/${id}`)).body.status).toBe("pending");
  });

  it("refuses a recurring payment created through the sandbox, and another account's", async () => {
    const sandbox = await server.call("POST", "/sandbox/recurring-payments", {
      body: {
        status: "pending",
        payer: subscriber.address,
        payee,
        currency: "USDC-base",
        amount: "5",
        totalPayments: 3,
        spender: baseProxy,
      },
    });
    const signature = await subscriber.signTypedData({
      domain: { name: "x" },
      types: { T: [{ name: "a", type: "uint256" }] },
      primaryType: "T",
      message: { a: 1n },
    });
    const withoutPermit = await server.call("POST", `/v2/payouts/recurring/${sandbox.body.id}`, {
      body: { permitSignature: signature },
    });
    problemErrors(withoutPermit, "/problems/invalid-state", 400);
    const { id } = await createRecurring(server);
    const foreign = await server.call("POST", `/v2/payouts/recurring/${id}`, {
      ...asOtherAccount,
      body: { permitSignature: signature },
    });
    problemErrors(foreign, "/problems/not-found", 404);
  });

  it("refuses a permit past its deadline", async () => {
    const { id, recurringPaymentPermit } = await createRecurring(server, {
      ...monthly(),
      recurrence: { ...monthly().recurrence, frequency: "DAILY", totalPayments: 2 },
    });
    const permitSignature = await subscriber.signTypedData(readTypedData(recurringPaymentPermit) as never);
    await server.call("POST", "/sandbox/clock", { body: { now: "2026-05-04T00:00:00.000Z" } });
    try {
      const late = await server.call("POST", `/v2/payouts/recurring/${id}`, { body: { permitSignature } });
      problemErrors(late, "/problems/invalid-state", 400);
      expect(late.body.detail).toBe(
        `The permit of recurring payment ${id} expired at 2026-05-03T00:00:00.000Z; create the recurring payout again.`,
      );
    } finally {
      await server.call("POST", "/sandbox/clock", { body: { now: "2026-04-12T10:00:00.000Z" } });
    }
  });
});
