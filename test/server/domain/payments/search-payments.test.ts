import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  asOtherAccount,
  payee,
  problemErrors,
  startTestServerWithOtherAccount,
  type TestServer,
} from "../../helpers.ts";

const otherPayee = "0x1f9840a85d5aF5bf1D1762F925BDADdC4201F984";
const hash = (byte: string) => `0x${byte.repeat(32)}`;

let server: TestServer;
const ids: Record<string, string> = {};

/** Moves the sandbox clock, so that each payment has its own timestamp. */
const at = (now: string) => server.call("POST", "/sandbox/clock", { body: { now } });

async function createPaid(
  body: Record<string, unknown>,
  payments: { outcome: string; amount?: string; txHash: string; now: string }[],
) {
  const created = await server.call("POST", "/v2/request", { body });
  expect(created.status).toBe(201);
  for (const { now, ...payment } of payments) {
    await at(now);
    const recorded = await server.call("POST", `/sandbox/requests/${created.body.requestId}/payments`, {
      body: payment,
    });
    expect(recorded.status).toBe(201);
  }
  return created.body.requestId as string;
}

beforeAll(async () => {
  server = await startTestServerWithOtherAccount();
  ids.invoice = await createPaid(
    { payee, amount: "150", invoiceCurrency: "USD", paymentCurrency: "USDC-base", reference: "INV-1" },
    [
      { outcome: "partial", amount: "100", txHash: hash("a1"), now: "2026-04-01T10:00:00.000Z" },
      { outcome: "paid", txHash: hash("a2"), now: "2026-04-03T10:00:00.000Z" },
    ],
  );
  ids.direct = await createPaid(
    { payee: otherPayee, amount: "0.5", invoiceCurrency: "ETH-base-base", paymentCurrency: "ETH-base-base" },
    [{ outcome: "paid", txHash: hash("b1"), now: "2026-04-02T10:00:00.000Z" }],
  );
  ids.failed = await createPaid(
    { payee, amount: "5", invoiceCurrency: "USDC-base", paymentCurrency: "USDC-base" },
    [{ outcome: "failed", txHash: hash("c1"), now: "2026-04-04T10:00:00.000Z" }],
  );
  await server.call("POST", "/v2/request", {
    ...asOtherAccount,
    body: { payee, amount: "1", invoiceCurrency: "USD", paymentCurrency: "USDC-base" },
  });
  await at("2026-04-12T10:00:00.000Z");
});
afterAll(() => server.close());

const search = (query: string, options = {}) => server.call("GET", `/v2/payments?${query}`, options);
const found = (answer: { body: { payments: { sourceTxHash: string }[] } }) =>
  answer.body.payments.map((payment) => payment.sourceTxHash);

describe("searchPayments (GET /v2/payments)", () => {
  it("finds a request's payments, newest first, each with its request and type", async () => {
    const answer = await search(`requestId=${ids.invoice}`, { auth: "clientId" });
    expect(answer.status).toBe(200);
    expect(answer.body.pagination).toEqual({ total: 2, limit: 20, offset: 0, hasMore: false });
    expect(answer.body.payments[0]).toEqual({
      id: expect.stringMatching(/^[0-9A-HJKMNP-TV-Z]{26}$/),
      amount: "50",
      sourceNetwork: "base",
      destinationNetwork: "base",
      sourceTxHash: hash("a2"),
      destinationTxHash: null,
      timestamp: "2026-04-03T10:00:00.000Z",
      type: "conversion",
      currency: "USD",
      paymentCurrency: "USDC",
      conversionRateSource: null,
      conversionRateDestination: null,
      convertedAmountSource: null,
      convertedAmountDestination: null,
      rateProvider: null,
      fees: [],
      recurringPaymentId: null,
      request: {
        requestId: ids.invoice,
        paymentReference: expect.stringMatching(/^0x[0-9a-f]{16}$/),
        hasBeenPaid: true,
        customerInfo: null,
        reference: "INV-1",
      },
    });
    expect(found(answer)).toEqual([hash("a2"), hash("a1")]);
  });

  it("combines filters with AND and never lists failed attempts or other accounts' payments", async () => {
    expect(found(await search(`walletAddress=${payee.toLowerCase()}`))).toEqual([hash("a2"), hash("a1")]);
    expect(found(await search("type=direct"))).toEqual([hash("b1")]);
    expect(found(await search("paymentCurrency=usdc&reference=INV-1"))).toEqual([hash("a2"), hash("a1")]);
    expect(found(await search("invoiceCurrency=ETH-base-base"))).toEqual([hash("b1")]);
    expect(found(await search(`txHash=${hash("A1")}`))).toEqual([hash("a1")]);
    expect(found(await search(`txHash=${hash("c1")}`))).toEqual([]);
    expect(found(await search("fromDate=2026-04-02T00:00:00.000Z&toDate=2026-04-02T23:59:59.999Z"))).toEqual([
      hash("b1"),
    ]);
    const reference = (await server.call("GET", `/v2/request/${ids.direct}`)).body.paymentReference;
    expect(found(await search(`paymentReference=${reference}&type=direct`))).toEqual([hash("b1")]);
    expect(found(await search(`paymentReference=${reference}&type=conversion`))).toEqual([]);
  });

  it("pages with limit and offset", async () => {
    const first = await search("paymentCurrency=USDC&limit=1");
    expect(found(first)).toEqual([hash("a2")]);
    expect(first.body.pagination).toEqual({ total: 2, limit: 1, offset: 0, hasMore: true });
    const second = await search("paymentCurrency=USDC&limit=1&offset=1");
    expect(found(second)).toEqual([hash("a1")]);
    expect(second.body.pagination).toEqual({ total: 2, limit: 1, offset: 1, hasMore: false });
  });

  it("requires a search parameter, and a toDate not before fromDate", async () => {
    expect(problemErrors(await search("limit=5"), "/problems/validation-failed", 400)).toEqual([
      {
        path: "/query",
        message:
          "needs at least one of txHash, walletAddress, paymentReference, requestId, reference, type, invoiceCurrency, paymentCurrency, fromDate, toDate",
      },
    ]);
    const reversed = await search("fromDate=2026-04-02T00:00:00.000Z&toDate=2026-04-01T00:00:00.000Z");
    expect(problemErrors(reversed, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/query/toDate",
        message: "must not be before fromDate (2026-04-02T00:00:00.000Z), got 2026-04-01T00:00:00.000Z",
      },
    ]);
    const local = await search("fromDate=2026-04-02T00:00:00%2B02:00");
    expect(problemErrors(local, "/problems/validation-failed", 400).map((issue) => issue.path)).toEqual([
      "/query/fromDate",
    ]);
    const tooMany = await search("type=direct&limit=101");
    expect(problemErrors(tooMany, "/problems/validation-failed", 400).map((issue) => issue.path)).toEqual([
      "/query/limit",
    ]);
  });
});
