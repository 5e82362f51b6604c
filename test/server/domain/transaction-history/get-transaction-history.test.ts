import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  asOtherAccount,
  browserOrigin,
  clientId,
  payee,
  payer,
  startTestServerWithOtherAccount,
  type TestServer,
} from "../../helpers.ts";

const hash = (byte: string) => `0x${byte.repeat(32)}`;
let server: TestServer;

const at = (now: string) => server.call("POST", "/sandbox/clock", { body: { now } });

async function createAndPay(
  body: Record<string, unknown>,
  payments: Record<string, unknown>[],
  now: string[],
) {
  const created = await server.call("POST", "/v2/request", { body });
  expect(created.status).toBe(201);
  for (const [index, payment] of payments.entries()) {
    await at(now[index] as string);
    const recorded = await server.call("POST", `/sandbox/requests/${created.body.requestId}/payments`, {
      body: payment,
    });
    expect(recorded.status).toBe(201);
  }
}

beforeAll(async () => {
  server = await startTestServerWithOtherAccount();
  // Paid to `payee` in two parts by `payer`.
  await createAndPay(
    { payee, amount: "150", invoiceCurrency: "USDC-base", paymentCurrency: "USDC-base" },
    [
      { outcome: "partial", amount: "100", txHash: hash("a1"), payerAddress: payer },
      { outcome: "paid", txHash: hash("a2") },
    ],
    ["2026-04-01T10:00:00.000Z", "2026-04-03T10:00:00.000Z"],
  );
  // `payee` pays `payer`: an outgoing transfer of `payee`.
  await createAndPay(
    { payee: payer, amount: "7.5", invoiceCurrency: "USDC-base", paymentCurrency: "USDC-base" },
    [{ outcome: "paid", txHash: hash("b1"), payerAddress: payee }],
    ["2026-04-02T10:00:00.000Z"],
  );
  // Other currencies are not in a history of USDC on Base, nor are failed attempts.
  await createAndPay(
    { payee, amount: "3", invoiceCurrency: "USDT-base", paymentCurrency: "USDT-base" },
    [{ outcome: "paid", txHash: hash("c1") }],
    ["2026-04-04T10:00:00.000Z"],
  );
  await createAndPay(
    { payee, amount: "9", invoiceCurrency: "USDC-base", paymentCurrency: "USDC-base" },
    [{ outcome: "failed", txHash: hash("d1") }],
    ["2026-04-05T10:00:00.000Z"],
  );
  await server.call("POST", "/v2/request", {
    ...asOtherAccount,
    body: { payee, amount: "1", invoiceCurrency: "USDC-base", paymentCurrency: "USDC-base" },
  });
});
afterAll(() => server.close());

const history = (query: string) =>
  server.call("GET", `/v2/transaction-history?${query}`, { auth: "clientId" });

describe("getTransactionHistory (GET /v2/transaction-history)", () => {
  it("lists what a wallet received and paid in USDC on Base, newest first", async () => {
    const answer = await history(`address=${payee.toLowerCase()}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      transactions: [
        {
          type: "incoming",
          timestamp: "2026-04-03T10:00:00.000Z",
          to: payee,
          amountReceived: "50",
          amountPaid: "50",
          paymentCurrency: "USDC",
          receivingCurrency: "USDC",
          paymentChain: "base",
          receivingChain: "base",
          sourceTxHash: hash("a2"),
          destinationTxHash: hash("a2"),
        },
        {
          type: "outgoing",
          timestamp: "2026-04-02T10:00:00.000Z",
          from: payee,
          to: payer,
          amountReceived: "7.5",
          amountPaid: "7.5",
          paymentCurrency: "USDC",
          receivingCurrency: "USDC",
          paymentChain: "base",
          receivingChain: "base",
          sourceTxHash: hash("b1"),
          destinationTxHash: hash("b1"),
        },
        {
          type: "incoming",
          timestamp: "2026-04-01T10:00:00.000Z",
          from: payer,
          to: payee,
          amountReceived: "100",
          amountPaid: "100",
          paymentCurrency: "USDC",
          receivingCurrency: "USDC",
          paymentChain: "base",
          receivingChain: "base",
          sourceTxHash: hash("a1"),
          destinationTxHash: hash("a1"),
        },
      ],
      pagination: { total: 3, limit: 20, offset: 0, hasMore: false },
    });
  });

  it("pages with limit and offset", async () => {
    const answer = await history(`address=${payee}&limit=1&offset=1`);
    expect(answer.body.transactions.map((item: { sourceTxHash: string }) => item.sourceTxHash)).toEqual([
      hash("b1"),
    ]);
    expect(answer.body.pagination).toEqual({ total: 3, limit: 1, offset: 1, hasMore: true });
  });

  it("answers an empty page for a TRON address: the sandbox has no USDT on TRON", async () => {
    const answer = await history("address=TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7");
    expect(answer.body).toEqual({
      transactions: [],
      pagination: { total: 0, limit: 20, offset: 0, hasMore: false },
    });
  });

  it("refuses an address that is neither EVM nor TRON, naming the parameter", async () => {
    const answer = await history("address=0x1234");
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([expect.objectContaining({ path: "/query/address" })]);
  });

  it("refuses a missing address and a limit above 100", async () => {
    const missing = await history("limit=5");
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([expect.objectContaining({ path: "/query/address" })]);
    const tooMany = await history(`address=${payee}&limit=101`);
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors).toEqual([expect.objectContaining({ path: "/query/limit" })]);
  });

  it("takes a client ID only, as the service does: an API key is refused", async () => {
    const answer = await server.call("GET", `/v2/transaction-history?address=${payee}`);
    expect(answer.status).toBe(401);
    const withOrigin = await server.call("GET", `/v2/transaction-history?address=${payee}`, {
      auth: "none",
      headers: { "x-client-id": clientId, origin: browserOrigin },
    });
    expect(withOrigin.status).toBe(200);
  });
});
