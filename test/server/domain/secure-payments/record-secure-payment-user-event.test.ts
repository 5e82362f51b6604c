import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  asOtherAccount,
  clientId,
  createSecurePayment,
  problemErrors,
  schemaErrors,
  startInstant,
  startTestServerWithOtherAccount,
  type TestServer,
  usdcOnBase,
} from "../../helpers.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServerWithOtherAccount();
});
afterAll(() => server.close());

const report = (token: string, body: unknown, options: { auth?: "clientId" | "apiKey" } = {}) =>
  server.call("POST", `/v2/secure-payments/${token}/events`, { body, auth: options.auth ?? "clientId" });

/** The `secure_payment.user_event` events of one link in the outbox, oldest first, with their account. */
async function userEvents(token: string) {
  const events = await server.server.store.listEvents();
  return events
    .filter((entry) => entry.type === "secure_payment.user_event")
    .map(
      (entry): Record<string, unknown> => ({
        accountId: entry.data.accountId,
        outboxRequestId: entry.data.requestId,
        ...(entry.data.payload as object),
      }),
    )
    .filter((payload) => payload.securePaymentToken === token);
}

describe("recordSecurePaymentUserEvent (POST /v2/secure-payments/{token}/events)", () => {
  it("answers 202 and queues secure_payment.user_event for the link's account, with the step as reported", async () => {
    const { token, requestIds } = await createSecurePayment(server, [usdcOnBase(), usdcOnBase("40.00")]);
    const answer = await report(token, {
      userEvent: "payment_approved_in_wallet",
      occurredAt: "2026-04-12T09:59:58.250Z",
      properties: { wallet_provider: "metamask", payment_type: "batch", retries: 2, safe: false, hint: null },
    });
    expect(answer.status).toBe(202);
    expect(answer.body).toEqual({ received: true });
    const events = await userEvents(token);
    expect(events).toEqual([
      {
        accountId: "acct_sandbox",
        outboxRequestId: requestIds[0],
        event: "secure_payment.user_event",
        userEvent: "payment_approved_in_wallet",
        securePaymentToken: token,
        requestId: requestIds[0],
        requestIds,
        clientId,
        occurredAt: "2026-04-12T09:59:58.250Z",
        timestamp: startInstant,
        properties: {
          wallet_provider: "metamask",
          payment_type: "batch",
          retries: 2,
          safe: false,
          hint: null,
        },
      },
    ]);
    const { accountId: _, outboxRequestId: __, ...payload } = events[0] as Record<string, unknown>;
    expect(schemaErrors("SecurePaymentUserEvent", payload)).toBe("");
    // The link is unchanged: still payable.
    expect((await server.call("GET", `/v2/secure-payments/${token}`)).status).toBe(200);
  });

  it("takes a step without occurredAt or properties as happening now, with no properties", async () => {
    const { token } = await createSecurePayment(server);
    expect((await report(token, { userEvent: "wallet_connected" })).status).toBe(202);
    const [event] = await userEvents(token);
    expect(event).toMatchObject({ userEvent: "wallet_connected", occurredAt: startInstant, properties: {} });
  });

  it("takes steps on expired and completed links too", async () => {
    const paid = await createSecurePayment(server);
    await server.call("POST", `/sandbox/requests/${paid.requestIds[0]}/payments`, {
      body: { outcome: "paid", txHash: `0x${"ab".repeat(32)}` },
    });
    expect((await report(paid.token, { userEvent: "payment_sent_to_wallet" })).status).toBe(202);
    const expiring = await createSecurePayment(server);
    await server.call("POST", "/sandbox/clock", { body: { advanceSeconds: 8 * 24 * 3600 } });
    try {
      expect((await server.call("GET", `/v2/secure-payments/${expiring.token}`)).status).toBe(403);
      expect((await report(expiring.token, { userEvent: "wallet_connected" })).status).toBe(202);
    } finally {
      await server.call("POST", "/sandbox/clock", { body: { now: startInstant } });
    }
    expect((await userEvents(paid.token)).map((event) => event.userEvent)).toEqual([
      "payment_sent_to_wallet",
    ]);
    expect(await userEvents(expiring.token)).toHaveLength(1);
  });

  it("answers 404 for an unknown token and another account's link, queuing nothing", async () => {
    problemErrors(
      await report("01KM9S346Q3D25VT4F5V37E3S3", { userEvent: "wallet_connected" }),
      "/problems/not-found",
      404,
    );
    const created = await server.call("POST", "/v2/secure-payments", {
      ...asOtherAccount,
      body: { requests: [usdcOnBase()] },
    });
    const token = created.body.token as string;
    const answer = await report(token, { userEvent: "wallet_connected" });
    problemErrors(answer, "/problems/not-found", 404);
    expect(answer.body.detail).toBe(`No secure payment has the token ${token}.`);
    expect(await userEvents(token)).toEqual([]);
  });

  it("takes a client ID only: an API key answers 401", async () => {
    const { token } = await createSecurePayment(server);
    problemErrors(
      await report(token, { userEvent: "wallet_connected" }, { auth: "apiKey" }),
      "/problems/unauthorized",
      401,
    );
    expect(await userEvents(token)).toEqual([]);
  });

  it("refuses an unknown step, and properties past their limits, naming the field", async () => {
    const { token } = await createSecurePayment(server);
    const unknown = problemErrors(
      await report(token, { userEvent: "page_opened" }),
      "/problems/validation-failed",
      400,
    );
    expect(unknown.map((error) => error.path)).toEqual(["/body/userEvent"]);
    const many = Object.fromEntries(Array.from({ length: 65 }, (_, index) => [`key_${index}`, index]));
    const tooMany = problemErrors(
      await report(token, { userEvent: "wallet_connected", properties: many }),
      "/problems/validation-failed",
      400,
    );
    expect(tooMany.map((error) => error.path)).toEqual(["/body/properties"]);
    const nested = problemErrors(
      await report(token, { userEvent: "wallet_connected", properties: { wallet: { name: "metamask" } } }),
      "/problems/validation-failed",
      400,
    );
    expect(nested.map((error) => error.path)).toContain("/body/properties/wallet");
    expect(await userEvents(token)).toEqual([]);
  });
});
