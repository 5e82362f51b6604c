import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  asOtherAccount,
  payee,
  problemErrors,
  startTestServerWithOtherAccount,
  type TestServer,
} from "../../helpers.ts";

const ulid = /^[0-9A-HJKMNP-TV-Z]{26}$/;
const bridgeTx = `0x${"4f".repeat(32)}`;
let server: TestServer;
let requestId: string;

beforeAll(async () => {
  server = await startTestServerWithOtherAccount();
  const created = await server.call("POST", "/v2/request", {
    body: { payee, amount: "1000", invoiceCurrency: "USDT-base", paymentCurrency: "USDT-base" },
  });
  requestId = created.body.requestId;
});
afterAll(() => server.close());

const report = (idOrReference: string, body: Record<string, unknown>, options = {}) =>
  server.call("POST", `/v2/journey/${encodeURIComponent(idOrReference)}`, { body, ...options });

describe("createJourney (POST /v2/journey)", () => {
  it("starts a journey of one of the caller's requests, or of none", async () => {
    const forRequest = await server.call("POST", "/v2/journey", { body: { requestId } });
    expect(forRequest.status).toBe(201);
    expect(forRequest.body).toEqual({ journeyId: expect.stringMatching(ulid) });
    const read = await server.call("GET", `/v2/journey/${forRequest.body.journeyId}`);
    expect(read.body).toEqual({
      id: forRequest.body.journeyId,
      requestId,
      createdAt: "2026-04-12T10:00:00.000Z",
      events: [],
    });
    const standalone = await server.call("POST", "/v2/journey", { body: {} });
    expect(standalone.status).toBe(201);
    expect((await server.call("GET", `/v2/journey/${standalone.body.journeyId}`)).body.requestId).toBeNull();
  });

  it("refuses another account's request as an unknown one, naming /body/requestId", async () => {
    const answer = await server.call("POST", "/v2/journey", { ...asOtherAccount, body: { requestId } });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/requestId", message: `is not a request of this account, got ${requestId}` },
    ]);
  });

  it("takes the API key only", async () => {
    const answer = await server.call("POST", "/v2/journey", { auth: "clientId", body: {} });
    expect(answer.status).toBe(401);
  });
});

describe("createJourneyEvent (POST /v2/journey/{journeyId})", () => {
  it("records steps by journey id and by a step's txReference, and orders them by processedAt", async () => {
    const { journeyId } = (await server.call("POST", "/v2/journey", { body: { requestId } })).body;
    const bridged = await report(journeyId, {
      status: "COMPLETED",
      amount: "1000.00",
      currency: "USDT",
      txReference: bridgeTx,
      processedAt: "2026-04-10T14:23:00Z",
      rawPayload: { bridge: "across", fee: "1.20" },
      nextProcessorId: "bank-eu-01",
    });
    expect(bridged.status).toBe(201);
    expect(bridged.body).toEqual({
      id: expect.stringMatching(ulid),
      journeyId,
      processorId: "acct_sandbox",
      status: "COMPLETED",
      amount: "1000.00",
      currency: "USDT",
      txReference: bridgeTx,
      processedAt: "2026-04-10T14:23:00.000Z",
      rawPayload: { bridge: "across", fee: "1.20" },
      nextProcessorId: "bank-eu-01",
    });
    // The bank names the journey by the bridge's transaction, and reported an earlier step late.
    const bank = await report(bridgeTx, {
      status: "SETTLED",
      amount: "998.80",
      processedAt: "2026-04-11T09:00:00Z",
    });
    expect(bank.body.journeyId).toBe(journeyId);
    const first = await report(journeyId, {
      status: "PENDING",
      amount: "1000",
      processedAt: "2026-04-10T13:00:00Z",
    });
    expect(first.status).toBe(201);

    const timeline = await server.call("GET", `/v2/journey/${journeyId}`);
    expect(
      timeline.body.events.map((step: Record<string, unknown>) => [
        step.stepIndex,
        step.status,
        step.processedAt,
      ]),
    ).toEqual([
      [1, "PENDING", "2026-04-10T13:00:00.000Z"],
      [2, "COMPLETED", "2026-04-10T14:23:00.000Z"],
      [3, "SETTLED", "2026-04-11T09:00:00.000Z"],
    ]);
    expect(timeline.body.events[0]).toEqual({
      id: first.body.id,
      stepIndex: 1,
      processorId: "acct_sandbox",
      status: "PENDING",
      amount: "1000",
      processedAt: "2026-04-10T13:00:00.000Z",
    });
  });

  it("answers 404 for another account's journey, and for a reference no step has", async () => {
    const { journeyId } = (await server.call("POST", "/v2/journey", { body: {} })).body;
    const step = { status: "PENDING", amount: "1", processedAt: "2026-04-10T13:00:00Z" };
    const foreign = await report(journeyId, step, asOtherAccount);
    expect(problemErrors(foreign, "/problems/not-found", 404)).toEqual([]);
    const unknown = await report(`0x${"99".repeat(32)}`, step);
    expect(unknown.status).toBe(404);
    expect((await server.call("GET", `/v2/journey/${journeyId}`, asOtherAccount)).status).toBe(404);
    expect((await server.call("GET", `/v2/journey/${journeyId}`)).body.events).toEqual([]);
  });

  it("refuses a step without processedAt in UTC, or without amount, naming the field", async () => {
    const { journeyId } = (await server.call("POST", "/v2/journey", { body: {} })).body;
    const local = await report(journeyId, {
      status: "PENDING",
      amount: "1",
      processedAt: "2026-04-10T13:00:00+02:00",
    });
    expect(local.status).toBe(400);
    expect(local.body.errors).toEqual([expect.objectContaining({ path: "/body/processedAt" })]);
    const noAmount = await report(journeyId, { status: "PENDING", processedAt: "2026-04-10T13:00:00Z" });
    expect(noAmount.status).toBe(400);
    expect(noAmount.body.errors).toEqual([expect.objectContaining({ path: "/body/amount" })]);
    expect((await server.call("GET", `/v2/journey/${journeyId}`)).body.events).toEqual([]);
  });
});

describe("getJourney (GET /v2/journey/{journeyId})", () => {
  it("answers 404 for an unknown journey", async () => {
    const answer = await server.call("GET", "/v2/journey/01KMA2Q8W3V6X9Z1B4C7D0E5F8");
    expect(problemErrors(answer, "/problems/not-found", 404)).toEqual([]);
  });
});
