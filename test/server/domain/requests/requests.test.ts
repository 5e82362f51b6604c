import { decodeFunctionData, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  asOtherAccount,
  feeAddress,
  payee,
  payer,
  problemErrors,
  startTestServerWithOtherAccount,
  type TestServer,
} from "../../helpers.ts";

const invoice = { payee, amount: "150", invoiceCurrency: "USD", paymentCurrency: "USDC-base" };
const offRamp = "0xc59D435887F5955731b31386fE4E487d3eeE8516";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServerWithOtherAccount();
});
afterAll(() => server.close());

async function create(body: Record<string, unknown> = invoice) {
  const answer = await server.call("POST", "/v2/request", { body });
  expect(answer.status, answer.text).toBe(201);
  return answer.body as { requestId: string; paymentReference: string };
}

const payInSandbox = (requestId: string, body: Record<string, unknown>) =>
  server.call("POST", `/sandbox/requests/${requestId}/payments`, { body });

describe("createRequest (POST /v2/request)", () => {
  it("answers 201 with the id and reference of a request the sandbox stores as given", async () => {
    const { requestId, paymentReference } = await create({ ...invoice, reference: "INV-7" });
    expect(requestId).toMatch(/^01[0-9a-f]{64}$/);
    expect(paymentReference).toMatch(/^0x[0-9a-f]{16}$/);
    const stored = await server.call("GET", `/sandbox/requests/${requestId}`);
    expect(stored.body).toMatchObject({
      paymentReference,
      network: "base",
      payee,
      amount: "150",
      invoiceCurrency: "USD",
      paymentCurrency: "USDC-base",
      expectedAmount: "150",
      status: "pending",
    });
  });

  it("is paid through the same pay calldata as any request, with its reference on chain", async () => {
    const { requestId, paymentReference } = await create();
    const pay = await server.call("GET", `/v2/request/${requestId}/pay`);
    expect(pay.status).toBe(200);
    const abi = parseAbi([
      "function transferFromWithReferenceAndFee(address token, address to, uint256 amount, bytes paymentReference, uint256 feeAmount, address feeAddress)",
    ]);
    const { args } = decodeFunctionData({ abi, data: pay.body.transactions[1].data });
    expect(args[2]).toBe(150_000_000n);
    expect(args[3]).toBe(paymentReference);
  });

  it("requires a payee, except for a crypto-to-fiat request, which pays the sandbox off-ramp", async () => {
    const { payee: _, ...withoutPayee } = invoice;
    const refused = await server.call("POST", "/v2/request", { body: withoutPayee });
    expect(problemErrors(refused, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/payee", message: "is required unless isCryptoToFiatAvailable is true" },
    ]);
    const { requestId } = await create({ ...withoutPayee, isCryptoToFiatAvailable: true });
    const stored = await server.call("GET", `/sandbox/requests/${requestId}`);
    expect(stored.body.payee).toBe(offRamp);
    const status = await server.call("GET", `/v2/request/${requestId}`);
    expect(status.body.isCryptoToFiatAvailable).toBe(true);
  });

  it("refuses an unknown currency, a zero amount and a recurrence that starts in the past, naming each field", async () => {
    const unknown = await server.call("POST", "/v2/request", {
      body: { ...invoice, paymentCurrency: "USDC-nowhere" },
    });
    expect(problemErrors(unknown, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/paymentCurrency",
        message: 'is not a currency the service supports, got "USDC-nowhere" (see GET /v1/currencies)',
      },
    ]);
    const zero = await server.call("POST", "/v2/request", { body: { ...invoice, amount: "0" } });
    expect(problemErrors(zero, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/amount", message: 'must be greater than 0, got "0"' },
    ]);
    const past = await server.call("POST", "/v2/request", {
      body: { ...invoice, recurrence: { startDate: "2026-04-11", frequency: "MONTHLY" } },
    });
    expect(problemErrors(past, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/recurrence/startDate",
        message: 'cannot be in the past (today is 2026-04-12 in UTC), got "2026-04-11"',
      },
    ]);
    const unreal = await server.call("POST", "/v2/request", {
      body: { ...invoice, recurrence: { startDate: "2026-02-30", frequency: "MONTHLY" } },
    });
    expect(problemErrors(unreal, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/recurrence/startDate",
        message: 'must be a real date such as 2026-05-01, got "2026-02-30"',
      },
    ]);
  });

  it("accepts today's date as a start, as a form sends it at midnight", async () => {
    await create({ ...invoice, recurrence: { startDate: "2026-04-12T00:00:00.000Z", frequency: "DAILY" } });
  });

  it("checks that originalRequestId is one of the caller's requests, with its reference", async () => {
    const original = await create();
    const theirs = await server.call("POST", "/v2/request", { ...asOtherAccount, body: invoice });
    const foreign = await server.call("POST", "/v2/request", {
      body: { ...invoice, originalRequestId: theirs.body.requestId },
    });
    expect(problemErrors(foreign, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/originalRequestId", message: "is not the id of one of your requests" },
    ]);
    const mismatch = await server.call("POST", "/v2/request", {
      body: {
        ...invoice,
        originalRequestId: original.requestId,
        originalRequestPaymentReference: "0x0000000000000000",
      },
    });
    expect(problemErrors(mismatch, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/originalRequestPaymentReference",
        message: `must be the payment reference of originalRequestId, ${original.paymentReference}`,
      },
    ]);
    const period = await create({
      ...invoice,
      originalRequestId: original.requestId,
      originalRequestPaymentReference: original.paymentReference,
    });
    const status = await server.call("GET", `/v2/request/${period.requestId}`);
    expect(status.body).toMatchObject({
      originalRequestId: original.requestId,
      originalRequestPaymentReference: original.paymentReference,
    });
  });
});

describe("getRequestStatus (GET /v2/request/{requestId})", () => {
  it("reports an unpaid request with what it was created with", async () => {
    const customerInfo = {
      firstName: "Ada",
      lastName: "Lovelace",
      address: { city: "Leith", country: "GB" },
    };
    const { requestId, paymentReference } = await create({ ...invoice, reference: "INV-8", customerInfo });
    const answer = await server.call("GET", `/v2/request/${requestId}`, { auth: "clientId" });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      requestId,
      paymentReference,
      hasBeenPaid: false,
      status: "pending",
      isListening: true,
      txHash: null,
      payments: [],
      conversionBreakdown: { paidAmount: "0", remainingAmount: "150", payments: [] },
      amountInUsd: "150",
      isRecurrenceStopped: false,
      isCryptoToFiatAvailable: false,
      customerInfo,
      reference: "INV-8",
      fees: [],
    });
  });

  it("follows the payments recorded on it: partly paid with a breakdown, then paid with the last hash", async () => {
    const { requestId } = await create();
    const first = `0x${"1a".repeat(32)}`;
    const second = `0x${"2b".repeat(32)}`;
    expect((await payInSandbox(requestId, { outcome: "partial", amount: "100", txHash: first })).status).toBe(
      201,
    );
    const partly = await server.call("GET", `/v2/request/${requestId}`);
    expect(partly.body).toMatchObject({
      hasBeenPaid: false,
      status: "partially_paid",
      isListening: true,
      txHash: first,
      payments: [{ amount: "100", txHash: first, timestamp: "2026-04-12T10:00:00.000Z" }],
      conversionBreakdown: {
        paidAmount: "100",
        remainingAmount: "50",
        payments: [{ amount: "100", timestamp: "2026-04-12T10:00:00.000Z" }],
      },
    });
    expect((await payInSandbox(requestId, { outcome: "paid", txHash: second })).status).toBe(201);
    const paid = await server.call("GET", `/v2/request/${requestId}`);
    expect(paid.body).toMatchObject({
      hasBeenPaid: true,
      status: "paid",
      isListening: false,
      txHash: second,
      payments: [
        { amount: "100", txHash: first },
        { amount: "50", txHash: second },
      ],
      conversionBreakdown: { paidAmount: "150", remainingAmount: "0" },
    });
  });

  it("does not count a failed attempt as a payment", async () => {
    const { requestId } = await create();
    await payInSandbox(requestId, { outcome: "failed" });
    const answer = await server.call("GET", `/v2/request/${requestId}`);
    expect(answer.body).toMatchObject({ status: "failed", hasBeenPaid: false, txHash: null, payments: [] });
  });

  it("reports requests created by a secure payment too, and prices only dollar stablecoins in USD", async () => {
    const link = await server.call("POST", "/v2/secure-payments", {
      body: {
        requests: [
          { payee, amount: "0.5", invoiceCurrency: "ETH-base-base", paymentCurrency: "ETH-base-base" },
        ],
      },
    });
    const answer = await server.call("GET", `/v2/request/${link.body.requestIds[0]}`);
    expect(answer.body).toMatchObject({ hasBeenPaid: false, amountInUsd: null, reference: null });
  });

  it("answers 404 for another account's request, as for an unknown one", async () => {
    const { requestId } = await create();
    const answer = await server.call("GET", `/v2/request/${requestId}`, asOtherAccount);
    problemErrors(answer, "/problems/not-found", 404);
    expect(answer.body.detail).toBe(`No request has the id ${requestId}.`);
  });
});

describe("updateRequest (PATCH /v2/request/{requestId})", () => {
  it("stops and resumes a recurring request, answering 200 with no body", async () => {
    const recurrence = { startDate: "2026-05-01", frequency: "MONTHLY" };
    const { requestId } = await create({ ...invoice, recurrence });
    const stop = await server.call("PATCH", `/v2/request/${requestId}`, {
      body: { isRecurrenceStopped: true },
    });
    expect(stop.status).toBe(200);
    expect(stop.text).toBe("");
    const stopped = await server.call("GET", `/v2/request/${requestId}`);
    expect(stopped.body).toMatchObject({ recurrence, isRecurrenceStopped: true });
    await server.call("PATCH", `/v2/request/${requestId}`, { body: { isRecurrenceStopped: false } });
    expect((await server.call("GET", `/v2/request/${requestId}`)).body.isRecurrenceStopped).toBe(false);
  });

  it("refuses a request without recurrence, and another account's request, changing nothing", async () => {
    const { requestId } = await create();
    const once = await server.call("PATCH", `/v2/request/${requestId}`, {
      body: { isRecurrenceStopped: true },
    });
    problemErrors(once, "/problems/invalid-state", 400);
    expect(once.body.detail).toBe(
      `Request ${requestId} has no recurrence to stop or resume; create it with recurrence to make it recurring.`,
    );
    const recurring = await create({
      ...invoice,
      recurrence: { startDate: "2026-05-01", frequency: "WEEKLY" },
    });
    const foreign = await server.call("PATCH", `/v2/request/${recurring.requestId}`, {
      ...asOtherAccount,
      body: { isRecurrenceStopped: true },
    });
    problemErrors(foreign, "/problems/not-found", 404);
    expect((await server.call("GET", `/v2/request/${recurring.requestId}`)).body.isRecurrenceStopped).toBe(
      false,
    );
  });

  it("requires isRecurrenceStopped", async () => {
    const { requestId } = await create();
    const answer = await server.call("PATCH", `/v2/request/${requestId}`, { body: {} });
    expect(problemErrors(answer, "/problems/validation-failed", 400).map((issue) => issue.path)).toEqual([
      "/body/isRecurrenceStopped",
    ]);
  });
});

describe("listRequestRoutes (GET /v2/request/{requestId}/routes)", () => {
  it("answers the direct route, priced with the fee, like the routes by payment reference", async () => {
    const { requestId, paymentReference } = await create();
    const query = `wallet=${payer}&feePercentage=2.5&feeAddress=${feeAddress}`;
    const byId = await server.call("GET", `/v2/request/${requestId}/routes?${query}`, { auth: "clientId" });
    expect(byId.status).toBe(200);
    expect(byId.body).toEqual({
      routes: [
        {
          id: "REQUEST_NETWORK_PAYMENT",
          fee: 0.025,
          speed: "FAST",
          price_impact: 0,
          chain: "BASE",
          token: "USDC",
        },
      ],
    });
    const byReference = await server.call("GET", `/v1/request/${paymentReference}/routes?${query}`);
    expect(byReference.body).toEqual(byId.body);
  });

  it("adds a cross-chain route for each bridged balance of the wallet that covers the amount", async () => {
    const { requestId } = await create();
    await server.call("POST", "/sandbox/wallets", {
      body: {
        address: payer,
        balances: [
          { currency: "USDC-optimism", amount: "150" },
          { currency: "USDT-arbitrum-one", amount: "149.99" },
          { currency: "USDT-mainnet", amount: "1000" },
        ],
      },
    });
    const answer = await server.call("GET", `/v2/request/${requestId}/routes?wallet=${payer}`);
    expect(answer.body.routes).toEqual([
      { id: "REQUEST_NETWORK_PAYMENT", fee: 0, speed: "FAST", price_impact: 0, chain: "BASE", token: "USDC" },
      { id: "OPTIMISM_BASE_USDC_USDC", fee: 0, speed: 60, price_impact: 0, chain: "OPTIMISM", token: "USDC" },
      { id: "ETHEREUM_BASE_USDT_USDC", fee: 0, speed: 60, price_impact: 0, chain: "ETHEREUM", token: "USDT" },
    ]);
  });

  it("requires the wallet and answers 404 for another account's request", async () => {
    const { requestId } = await create();
    const noWallet = await server.call("GET", `/v2/request/${requestId}/routes`);
    expect(problemErrors(noWallet, "/problems/validation-failed", 400).map((issue) => issue.path)).toEqual([
      "/query/wallet",
    ]);
    const foreign = await server.call(
      "GET",
      `/v2/request/${requestId}/routes?wallet=${payer}`,
      asOtherAccount,
    );
    problemErrors(foreign, "/problems/not-found", 404);
  });
});
