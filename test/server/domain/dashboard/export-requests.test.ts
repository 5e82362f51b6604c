import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  asOtherAccount,
  payee,
  payer,
  startTestServerWithOtherAccount,
  type TestServer,
} from "../../helpers.ts";

const hash = (byte: string) => `0x${byte.repeat(32)}`;
const header =
  "requestId,paymentReference,createdAt,status,reference,payee,payer,network,invoiceAmount,invoiceCurrency,paymentCurrency,amountDue,amountPaid,lastPaidAt,txHashes\r\n";
let server: TestServer;
const made: Record<string, { requestId: string; paymentReference: string }> = {};

const at = (now: string) => server.call("POST", "/sandbox/clock", { body: { now } });

beforeAll(async () => {
  server = await startTestServerWithOtherAccount();
  await at("2026-04-01T09:00:00.000Z");
  const first = await server.call("POST", "/v2/request", {
    body: {
      payee,
      amount: "150",
      invoiceCurrency: "USD",
      paymentCurrency: "USDC-base",
      reference: "=SUM(A1)",
    },
  });
  made.first = first.body;
  await at("2026-04-01T10:00:00.000Z");
  await server.call("POST", `/sandbox/requests/${first.body.requestId}/payments`, {
    body: { outcome: "partial", amount: "100", txHash: hash("a1"), payerAddress: payer },
  });
  await at("2026-04-01T11:00:00.000Z");
  await server.call("POST", `/sandbox/requests/${first.body.requestId}/payments`, {
    body: { outcome: "paid", txHash: hash("a2") },
  });
  await at("2026-04-02T09:00:00.000Z");
  const second = await server.call("POST", "/v2/request", {
    body: {
      payee,
      amount: "0.5",
      invoiceCurrency: "USDC-base",
      paymentCurrency: "USDC-base",
      reference: 'INV "7", B',
    },
  });
  made.second = second.body;
  await at("2026-04-03T09:00:00.000Z");
  const payout = await server.call("POST", "/v2/payouts", {
    body: {
      payee,
      amount: "20",
      invoiceCurrency: "USDC-base",
      paymentCurrency: "USDC-base",
      payerWallet: payer,
    },
  });
  expect(payout.status).toBe(201);
  made.payout = payout.body;
  await server.call("POST", "/v2/request", {
    ...asOtherAccount,
    body: { payee, amount: "1", invoiceCurrency: "USD", paymentCurrency: "USDC-base" },
  });
});
afterAll(() => server.close());

describe("exportRequests (GET /v2/dashboard/requests/export)", () => {
  it("exports the requests the account is paid through as CSV, newest first", async () => {
    const answer = await server.call("GET", "/v2/dashboard/requests/export?flow=incoming");
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const { first, second } = made as Record<string, { requestId: string; paymentReference: string }>;
    expect(answer.text).toBe(
      header +
        `${second?.requestId},${second?.paymentReference},2026-04-02T09:00:00.000Z,pending,"INV ""7"", B",${payee},,base,0.5,USDC-base,USDC-base,0.5,0,,\r\n` +
        `${first?.requestId},${first?.paymentReference},2026-04-01T09:00:00.000Z,paid,'=SUM(A1),${payee},${payer},base,150,USD,USDC-base,150,150,2026-04-01T11:00:00.000Z,${hash("a1")} ${hash("a2")}\r\n`,
    );
  });

  it("exports the requests the account pays with flow=outgoing", async () => {
    const answer = await server.call("GET", "/v2/dashboard/requests/export?flow=outgoing");
    expect(answer.status).toBe(200);
    const lines = answer.text.split("\r\n");
    expect(lines).toHaveLength(3);
    expect(lines[1]?.split(",").slice(0, 8)).toEqual([
      made.payout?.requestId,
      made.payout?.paymentReference,
      "2026-04-03T09:00:00.000Z",
      "pending",
      "",
      payee,
      payer,
      "base",
    ]);
  });

  it("exports only the header for an account with no requests", async () => {
    const answer = await server.call("GET", "/v2/dashboard/requests/export?flow=outgoing", asOtherAccount);
    expect(answer.text).toBe(header);
  });

  it("needs flow, one of incoming and outgoing", async () => {
    const missing = await server.call("GET", "/v2/dashboard/requests/export");
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([expect.objectContaining({ path: "/query/flow" })]);
    const wrong = await server.call("GET", "/v2/dashboard/requests/export?flow=both");
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual([expect.objectContaining({ path: "/query/flow" })]);
  });

  it("takes the API key only", async () => {
    const answer = await server.call("GET", "/v2/dashboard/requests/export?flow=incoming", {
      auth: "clientId",
    });
    expect(answer.status).toBe(401);
  });
});
