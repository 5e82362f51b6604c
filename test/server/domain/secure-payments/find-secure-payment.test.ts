import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asOtherAccount, configWithOtherAccount } from "../../fixtures.ts";
import {
  createSecurePayment,
  problemErrors,
  schemaErrors,
  startInstant,
  startTestServer,
  type TestServer,
  usdcOnBase,
} from "../../helpers.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ config: configWithOtherAccount() });
});
afterAll(() => server.close());

const find = (requestId: string, options = {}) =>
  server.call("GET", `/v2/secure-payments?requestId=${requestId}`, options);

describe("findSecurePayment (GET /v2/secure-payments?requestId=)", () => {
  it("finds a single link by its request: token, link, pending status and dates", async () => {
    const created = await server.call("POST", "/v2/secure-payments", {
      body: { requests: [usdcOnBase()], redirectUrl: "https://shop.example.com/thanks" },
    });
    const { token, requestIds, securePaymentUrl } = created.body;
    const answer = await find(requestIds[0]);
    expect(answer.status).toBe(200);
    expect(schemaErrors("SecurePaymentLookup", answer.body)).toBe("");
    expect(answer.body).toEqual({
      token,
      securePaymentUrl,
      status: "pending",
      paymentType: "single",
      requestIds,
      network: "base",
      currency: "USDC-base",
      redirectUrl: "https://shop.example.com/thanks",
      createdAt: startInstant,
      expiresAt: "2026-04-19T10:00:00.000Z",
      completedAt: null,
    });
  });

  it("finds a batch link by any of its requests, and follows its status: completed, with the time", async () => {
    const { token, requestIds } = await createSecurePayment(server, [usdcOnBase("10"), usdcOnBase("20")]);
    const bySecond = await find(requestIds[1] as string);
    expect(bySecond.body).toMatchObject({ token, paymentType: "batch", requestIds, status: "pending" });
    server.clock.set("2026-04-12T11:20:41.000Z");
    try {
      for (const requestId of requestIds) {
        const paid = await server.call("POST", `/sandbox/requests/${requestId}/payments`, {
          body: { outcome: "paid" },
        });
        expect(paid.status).toBe(201);
      }
    } finally {
      server.clock.set(startInstant);
    }
    expect((await find(requestIds[0] as string)).body).toMatchObject({
      status: "completed",
      completedAt: "2026-04-12T11:20:41.000Z",
    });
  });

  it("reads the status by the sandbox clock: expired past expiresAt", async () => {
    const { requestIds } = await createSecurePayment(server);
    server.clock.set("2026-04-19T10:00:00.000Z");
    try {
      expect((await find(requestIds[0] as string)).body).toMatchObject({
        status: "expired",
        completedAt: null,
      });
    } finally {
      server.clock.set(startInstant);
    }
  });

  it("answers 404 for an unknown request, another account's, and one no secure payment created", async () => {
    const unknown = await find(`01${"7".repeat(64)}`);
    problemErrors(unknown, "/problems/not-found", 404);
    expect(unknown.body.detail).toBe(
      `No secure payment of your account holds the request 01${"7".repeat(64)}.`,
    );
    const { requestIds } = await createSecurePayment(server);
    problemErrors(await find(requestIds[0] as string, asOtherAccount), "/problems/not-found", 404);
    const since = (await server.server.store.listEvents()).at(-1)?.sequence ?? 0;
    const batch = await server.call("POST", "/v2/payouts/batch", { body: { requests: [usdcOnBase()] } });
    expect(batch.status).toBe(201);
    const created = (await server.server.store.listEvents(since)).find(
      (event) => event.type === "request.created",
    );
    problemErrors(await find(created?.data.requestId as string), "/problems/not-found", 404);
  });

  it("names a missing or malformed requestId, and requires the API key", async () => {
    const missing = await server.call("GET", "/v2/secure-payments");
    expect(problemErrors(missing, "/problems/validation-failed", 400).map((error) => error.path)).toEqual([
      "/query/requestId",
    ]);
    const malformed = await find("0xnot-a-request");
    expect(problemErrors(malformed, "/problems/validation-failed", 400).map((error) => error.path)).toEqual([
      "/query/requestId",
    ]);
    const { requestIds } = await createSecurePayment(server);
    problemErrors(await find(requestIds[0] as string, { auth: "clientId" }), "/problems/unauthorized", 401);
  });
});
