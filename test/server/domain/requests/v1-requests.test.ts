import { decodeFunctionData, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  asOtherAccount,
  payee,
  payer,
  problemErrors,
  startTestServerWithOtherAccount,
  type TestServer,
} from "../../helpers.ts";

const invoice = { payee, amount: "120", invoiceCurrency: "USD", paymentCurrency: "USDC-base" };
const recurrence = { startDate: "2026-05-01", frequency: "MONTHLY" };

let server: TestServer;
beforeAll(async () => {
  server = await startTestServerWithOtherAccount();
});
afterAll(() => server.close());

async function createV1(body: Record<string, unknown> = invoice) {
  const answer = await server.call("POST", "/v1/request", { body });
  expect(answer.status, answer.text).toBe(201);
  return answer.body as { requestID: string; paymentReference: string };
}

describe("createRequestV1 (POST /v1/request)", () => {
  it("answers 201 with paymentReference and requestID, a request the v2 path reads", async () => {
    const created = await createV1({ ...invoice, payer, recurrence });
    expect(Object.keys(created).sort()).toEqual(["paymentReference", "requestID"]);
    expect(created.requestID).toMatch(/^01[0-9a-f]{64}$/);
    const read = await server.call("GET", `/v2/request/${created.requestID}`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      requestId: created.requestID,
      paymentReference: created.paymentReference,
      hasBeenPaid: false,
      recurrence,
      isRecurrenceStopped: false,
    });
  });

  it("requires the payee and the API key", async () => {
    const { payee: _, ...withoutPayee } = invoice;
    const refused = await server.call("POST", "/v1/request", { body: withoutPayee });
    expect(problemErrors(refused, "/problems/validation-failed", 400).map((issue) => issue.path)).toEqual([
      "/body/payee",
    ]);
    const byClientId = await server.call("POST", "/v1/request", { body: invoice, auth: "clientId" });
    expect(byClientId.status).toBe(401);
  });
});

describe("getRequestStatusV1 (GET /v1/request/{paymentReference})", () => {
  it("reads a request created on the v2 path by its reference, with or without 0x, then paid", async () => {
    const v2 = await server.call("POST", "/v2/request", { body: invoice });
    const { requestId, paymentReference } = v2.body;
    const unpaid = await server.call("GET", `/v1/request/${paymentReference.slice(2).toUpperCase()}`);
    expect(unpaid.status).toBe(200);
    expect(unpaid.body).toEqual({
      hasBeenPaid: false,
      paymentReference,
      requestId,
      requestAmount: "120",
      isListening: true,
      txHash: null,
      payments: [],
    });
    const txHash = `0x${"4d".repeat(32)}`;
    await server.call("POST", `/sandbox/requests/${requestId}/payments`, {
      body: { outcome: "paid", txHash },
    });
    const paid = await server.call("GET", `/v1/request/${paymentReference}`);
    expect(paid.body).toEqual({
      hasBeenPaid: true,
      paymentReference,
      requestId,
      requestAmount: "120",
      isListening: false,
      txHash,
      payments: [{ sourceTxHash: txHash, destinationTxHash: txHash, detectionSource: "sandbox", note: null }],
    });
  });

  it("answers 404 for another account's request, as for an unknown reference", async () => {
    const created = await createV1();
    const foreign = await server.call("GET", `/v1/request/${created.paymentReference}`, asOtherAccount);
    expect(problemErrors(foreign, "/problems/not-found", 404)).toEqual([]);
    expect(foreign.body.detail).toBe(`No request has the payment reference ${created.paymentReference}.`);
  });
});

describe("getPayCalldataV1 (GET /v1/request/{paymentReference}/pay)", () => {
  it("answers the calldata the v2 path answers for the same request", async () => {
    const created = await createV1();
    const v1 = await server.call("GET", `/v1/request/${created.paymentReference}/pay?wallet=${payer}`);
    const v2 = await server.call("GET", `/v2/request/${created.requestID}/pay?wallet=${payer}`);
    expect(v1.status).toBe(200);
    expect(v1.body).toEqual(v2.body);
    const abi = parseAbi([
      "function transferFromWithReferenceAndFee(address token, address to, uint256 amount, bytes paymentReference, uint256 feeAmount, address feeAddress)",
    ]);
    const { args } = decodeFunctionData({ abi, data: v1.body.transactions.at(-1).data });
    expect(args[2]).toBe(120_000_000n);
    expect(args[3]).toBe(created.paymentReference);
  });

  it("takes no fee parameters on the v1 path", async () => {
    const created = await createV1();
    const answer = await server.call(
      "GET",
      `/v1/request/${created.paymentReference}/pay?feePercentage=1&feeAddress=${payer}`,
    );
    expect(answer.status).toBe(400);
  });
});

describe("stopRequestRecurrenceV1 (PATCH /v1/request/{paymentReference}/stop-recurrence)", () => {
  it("stops the recurrence of a v1 request, answering 200 with no body, and again changes nothing", async () => {
    const created = await createV1({ ...invoice, recurrence });
    for (let round = 0; round < 2; round++) {
      const stop = await server.call("PATCH", `/v1/request/${created.paymentReference}/stop-recurrence`);
      expect(stop.status).toBe(200);
      expect(stop.text).toBe("");
    }
    const read = await server.call("GET", `/v2/request/${created.requestID}`);
    expect(read.body).toMatchObject({ recurrence, isRecurrenceStopped: true });
  });

  it("refuses a request without recurrence, and another account's, changing nothing", async () => {
    const plain = await createV1();
    const once = await server.call("PATCH", `/v1/request/${plain.paymentReference}/stop-recurrence`);
    problemErrors(once, "/problems/invalid-state", 400);
    expect(once.body.detail).toBe(
      `Request ${plain.requestID} has no recurrence to stop; create it with recurrence to make it recurring.`,
    );
    const recurring = await createV1({ ...invoice, recurrence });
    const foreign = await server.call(
      "PATCH",
      `/v1/request/${recurring.paymentReference}/stop-recurrence`,
      asOtherAccount,
    );
    problemErrors(foreign, "/problems/not-found", 404);
    const read = await server.call("GET", `/v2/request/${recurring.requestID}`);
    expect(read.body.isRecurrenceStopped).toBe(false);
  });
});
