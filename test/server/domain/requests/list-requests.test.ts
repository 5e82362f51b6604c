import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  asOtherAccount,
  clientId,
  payee,
  payer,
  problemErrors,
  startTestServerWithOtherAccount,
  type TestServer,
} from "../../helpers.ts";

// A payee of its own, so that the other tests' requests stay out of these lists.
const listedPayee = "0x1111111111111111111111111111111111111111";
const invoice = { payee: listedPayee, amount: "80", invoiceCurrency: "USD", paymentCurrency: "USDC-base" };

let server: TestServer;
beforeAll(async () => {
  server = await startTestServerWithOtherAccount();
});
afterAll(() => server.close());

async function create(body: Record<string, unknown>, auth: "apiKey" | "clientId" = "apiKey") {
  const answer = await server.call("POST", "/v2/request", { body, auth });
  expect(answer.status, answer.text).toBe(201);
  return answer.body as { requestId: string; paymentReference: string };
}

describe("listRequests (GET /v2/request)", () => {
  it("lists the requests paid to walletAddress, newest first, with what each was created with", async () => {
    const first = await create({ ...invoice, reference: "INV-1" });
    await server.call("POST", "/sandbox/clock", { body: { advanceSeconds: 60 } });
    const second = await create({ ...invoice, amount: "12.5", payer }, "clientId");
    await create({ ...invoice, payee });
    const paid = await server.call("POST", `/sandbox/requests/${first.requestId}/payments`, {
      body: { outcome: "paid", txHash: `0x${"3c".repeat(32)}` },
    });
    expect(paid.status).toBe(201);

    const answer = await server.call("GET", `/v2/request?walletAddress=${listedPayee}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      requests: [
        {
          requestId: second.requestId,
          paymentReference: second.paymentReference,
          amount: "12.5",
          invoiceCurrency: "USD",
          paymentCurrency: "USDC-base",
          hasBeenPaid: false,
          status: "pending",
          securePaymentStatus: null,
          reference: null,
          createdAt: "2026-04-12T10:01:00.000Z",
          txHash: null,
          payee: listedPayee,
          payer,
          clientId,
        },
        {
          requestId: first.requestId,
          paymentReference: first.paymentReference,
          amount: "80",
          invoiceCurrency: "USD",
          paymentCurrency: "USDC-base",
          hasBeenPaid: true,
          status: "paid",
          securePaymentStatus: null,
          reference: "INV-1",
          createdAt: "2026-04-12T10:00:00.000Z",
          txHash: `0x${"3c".repeat(32)}`,
          payee: listedPayee,
          payer: null,
          clientId: null,
        },
      ],
      pagination: { total: 2, limit: 50, offset: 0 },
    });

    const page = await server.call("GET", `/v2/request?walletAddress=${listedPayee}&limit=1&offset=1`);
    expect(page.body.requests.map((item: { requestId: string }) => item.requestId)).toEqual([
      first.requestId,
    ]);
    expect(page.body.pagination).toEqual({ total: 2, limit: 1, offset: 1 });

    const theirs = await server.call("GET", `/v2/request?walletAddress=${listedPayee}`, asOtherAccount);
    expect(theirs.body).toEqual({ requests: [], pagination: { total: 0, limit: 50, offset: 0 } });
  });

  it("requires walletAddress with the API key; a client ID without it lists the requests made with it", async () => {
    const refused = await server.call("GET", "/v2/request");
    expect(problemErrors(refused, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/query/walletAddress",
        message: "is required with the API key: name the payee wallet to list",
      },
    ]);
    const made = await create({ ...invoice, payee, amount: "7" }, "clientId");
    const listed = await server.call("GET", "/v2/request?limit=100", { auth: "clientId" });
    expect(listed.status).toBe(200);
    const items = listed.body.requests as { requestId: string; clientId: string }[];
    expect(items.map((item) => item.requestId)).toContain(made.requestId);
    expect(new Set(items.map((item) => item.clientId))).toEqual(new Set([clientId]));
  });

  it("keeps the requests of incoming or outgoing secure payments with securePaymentFlow", async () => {
    const link = await server.call("POST", "/v2/secure-payments", {
      body: { requests: [{ ...invoice, amount: "5" }] },
    });
    expect(link.status, link.text).toBe(201);
    const plain = await create(invoice);
    const incoming = await server.call(
      "GET",
      `/v2/request?walletAddress=${listedPayee}&securePaymentFlow=incoming`,
    );
    const ids = incoming.body.requests.map((item: { requestId: string }) => item.requestId);
    expect(ids).toEqual(link.body.requestIds);
    expect(ids).not.toContain(plain.requestId);
    expect(incoming.body.requests[0].securePaymentStatus).toBe("pending");
    const outgoing = await server.call(
      "GET",
      `/v2/request?walletAddress=${listedPayee}&securePaymentFlow=outgoing`,
    );
    expect(outgoing.body.requests).toEqual([]);
  });

  it("refuses a limit above 100 and a malformed wallet, naming each", async () => {
    const answer = await server.call("GET", "/v2/request?walletAddress=0x12&limit=101");
    expect(problemErrors(answer, "/problems/validation-failed", 400).map((issue) => issue.path)).toEqual([
      "/query/walletAddress",
      "/query/limit",
    ]);
  });
});
