import { decodeFunctionData, keccak256, stringToHex, toFunctionSelector } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commerceEscrowWrapperAbi } from "../../../../src/chain/commerce-escrow.ts";
import {
  asOtherAccount,
  payee,
  payer,
  problemErrors,
  startTestServerWithOtherAccount,
  type TestServer,
} from "../../helpers.ts";

const wrapper = "0x9A73b3774183d07d4a2b585B04982F2Ec672B03b";
const collector = "0x1b77ABd71FCD21fbe2398AE821Aa27D1E6B94bC6";
const operator = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const usdcOnBase = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const feeReceiver = "0x1f9840a85d5aF5bf1D1762F925BDADdC4201F984";
// The sandbox clock starts at 2026-04-12T10:00:00Z.
const now = 1775988000;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServerWithOtherAccount();
});
afterAll(() => server.close());

const order = {
  merchantId: "shop-42",
  merchantAddress: payee,
  buyerAddress: payer,
  amount: "1000000",
  paymentCurrency: "USDC-base",
};
const create = (body: Record<string, unknown> = order, options = {}) =>
  server.call("POST", "/v2/commerce-payments/authorize/calldata", { body, ...options });
const act = (requestId: string, action: string, body?: unknown, options = {}) =>
  server.call("POST", `/v2/commerce-payments/${requestId}/${action}`, {
    ...(body === undefined ? {} : { body }),
    ...options,
  });
const status = (requestId: string, options = {}) =>
  server.call("GET", `/v2/commerce-payments/${requestId}/status`, options);
const sandboxHash = (requestId: string, action: string, index: number) =>
  keccak256(stringToHex(`payreq sandbox ${requestId} ${action} ${index}`));

async function authorized(body: Record<string, unknown> = order) {
  const { requestId, paymentReference } = (await create(body)).body;
  expect((await act(requestId, "authorize")).status).toBe(200);
  return { requestId, paymentReference };
}

describe("the escrow wrapper's calls", () => {
  it("have the selectors of the wrapper's published signatures", () => {
    const selectors = Object.fromEntries(
      commerceEscrowWrapperAbi.map((fragment) => [fragment.name, toFunctionSelector(fragment)]),
    );
    expect(selectors).toEqual({
      authorizePayment: toFunctionSelector(
        "authorizePayment((bytes8,address,address,address,address,uint256,uint256,uint256,uint256,uint256,address,bytes))",
      ),
      capturePayment: toFunctionSelector("capturePayment(bytes8,uint256,uint16,address)"),
      voidPayment: toFunctionSelector("voidPayment(bytes8)"),
    });
    expect(selectors).toEqual({
      authorizePayment: "0x03af28e0",
      capturePayment: "0xa2615767",
      voidPayment: "0x4eff2760",
    });
  });
});

describe("generateCommerceAuthorizeCalldata (POST /v2/commerce-payments/authorize/calldata)", () => {
  it("creates the payment's request and answers authorizePayment on the wrapper, which decodes to the payment", async () => {
    const answer = await create({ ...order, maxAmount: "1500000" });
    expect(answer.status).toBe(201);
    const { requestId, paymentReference, data } = answer.body;
    expect(answer.body).toEqual({
      requestId: expect.stringMatching(/^01[0-9a-f]{64}$/),
      paymentReference: expect.stringMatching(/^0x[0-9a-f]{16}$/),
      to: wrapper,
      data: expect.stringMatching(/^0x03af28e0/),
      value: "0",
      description: `Authorize 1 USDC from ${payer} into escrow for ${payee}`,
    });
    expect(decodeFunctionData({ abi: commerceEscrowWrapperAbi, data })).toEqual({
      functionName: "authorizePayment",
      args: [
        {
          paymentReference,
          payer,
          merchant: payee,
          operator,
          token: usdcOnBase,
          amount: 1000000n,
          maxAmount: 1500000n,
          preApprovalExpiry: BigInt(now + 86400),
          authorizationExpiry: BigInt(now + 2 * 86400),
          refundExpiry: BigInt(now + 9 * 86400),
          tokenCollector: collector,
          collectorData: "0x",
        },
      ],
    });
    const request = await server.call("GET", `/v2/request/${requestId}`);
    expect(request.status).toBe(200);
    expect(request.body).toMatchObject({ paymentReference, hasBeenPaid: false });
    const read = await status(requestId);
    expect(read.body).toEqual({
      requestId,
      status: "PENDING",
      merchantId: "shop-42",
      payer,
      merchant: payee,
      operator,
      token: usdcOnBase,
      paymentCurrency: "USDC-base",
      amount: "1000000",
      maxAmount: "1500000",
      capturedAmount: "0",
      voidedAmount: "0",
      refundedAmount: "0",
      preApprovalExpiry: String(now + 86400),
      authorizationExpiry: String(now + 2 * 86400),
      refundExpiry: String(now + 9 * 86400),
      canCapture: false,
      canVoid: false,
      canRefund: false,
      createdAt: "2026-04-12T10:00:00.000Z",
      updatedAt: "2026-04-12T10:00:00.000Z",
      events: [],
    });
  });

  it("refuses what the escrow would revert on, naming the field", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ paymentCurrency: "ETH-base-base" }, "/body/paymentCurrency"],
      [{ paymentCurrency: "USDC-optimism" }, "/body/paymentCurrency"],
      [{ amount: "0" }, "/body/amount"],
      [{ maxAmount: "999999" }, "/body/maxAmount"],
      [{ preApprovalExpiry: now }, "/body/preApprovalExpiry"],
      [{ preApprovalExpiry: now + 100, authorizationExpiry: now + 99 }, "/body/authorizationExpiry"],
      [{ buyerAddress: "0x0000000000000000000000000000000000000000" }, "/body/buyerAddress"],
    ];
    for (const [change, path] of cases) {
      const answer = await create({ ...order, ...change });
      expect(
        problemErrors(answer, "/problems/validation-failed", 400).map((issue) => issue.path),
        path,
      ).toEqual([path]);
    }
    const noBuyer = await create({ ...order, buyerAddress: undefined });
    expect(noBuyer.status).toBe(400);
    expect(noBuyer.body.errors).toEqual([expect.objectContaining({ path: "/body/buyerAddress" })]);
  });
});

describe("authorizeCommercePayment (POST /v2/commerce-payments/{requestId}/authorize)", () => {
  it("authorizes a pending payment once", async () => {
    const { requestId } = (await create()).body;
    const answer = await act(requestId, "authorize");
    expect(answer.body).toEqual({
      requestId,
      status: "AUTHORIZED",
      transactionHash: sandboxHash(requestId, "authorize", 0),
      amount: "1000000",
    });
    const again = await act(requestId, "authorize");
    expect(problemErrors(again, "/problems/invalid-state", 400)).toEqual([]);
    expect(again.body.detail).toBe(
      `Commerce payment of request ${requestId} is AUTHORIZED; only a PENDING payment can be authorized.`,
    );
  });

  it("answers 404 for another account's payment, as for an unknown one", async () => {
    const { requestId } = (await create()).body;
    const foreign = await act(requestId, "authorize", undefined, asOtherAccount);
    expect(problemErrors(foreign, "/problems/not-found", 404)).toEqual([]);
    expect(foreign.body.detail).toBe(`No commerce payment of a request has the id ${requestId}.`);
    expect((await status(requestId)).body.status).toBe("PENDING");
  });
});

describe("captureCommercePayment (POST /v2/commerce-payments/{requestId}/capture)", () => {
  it("captures in parts, records each as a payment of the request, and is PAID once all is captured", async () => {
    const { requestId } = await authorized();
    const first = await act(requestId, "capture", { captureAmount: "400000", feeBps: 250, feeReceiver });
    expect(first.body).toEqual({
      requestId,
      status: "AUTHORIZED",
      transactionHash: sandboxHash(requestId, "capture", 1),
      captureAmount: "400000",
    });
    const tooMuch = await act(requestId, "capture", { captureAmount: "600001" });
    expect(problemErrors(tooMuch, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/captureAmount",
        message: "must be at most 600000, what is authorized and not captured, got 600001",
      },
    ]);
    const rest = await act(requestId, "capture", { captureAmount: "600000" });
    expect(rest.body.status).toBe("PAID");
    const read = (await status(requestId)).body;
    expect(read).toMatchObject({
      status: "PAID",
      capturedAmount: "1000000",
      canCapture: false,
      canVoid: false,
    });
    expect(read.events.map((event: { type: string; amount: string }) => [event.type, event.amount])).toEqual([
      ["AUTHORIZED", "1000000"],
      ["CAPTURED", "400000"],
      ["CAPTURED", "600000"],
    ]);
    const request = (await server.call("GET", `/sandbox/requests/${requestId}`)).body;
    expect(request.status).toBe("paid");
    expect(
      request.payments.map((payment: { amount: string; txHash: string }) => [payment.amount, payment.txHash]),
    ).toEqual([
      ["0.4", sandboxHash(requestId, "capture", 1)],
      ["0.6", sandboxHash(requestId, "capture", 2)],
    ]);
  });

  it("needs feeReceiver with a fee, and an authorized payment", async () => {
    const { requestId } = await authorized();
    const noReceiver = await act(requestId, "capture", { captureAmount: "1", feeBps: 100 });
    expect(problemErrors(noReceiver, "/problems/validation-failed", 400).map((issue) => issue.path)).toEqual([
      "/body/feeReceiver",
    ]);
    const pending = (await create()).body.requestId;
    const notYet = await act(pending, "capture", { captureAmount: "1" });
    expect(problemErrors(notYet, "/problems/invalid-state", 400)).toEqual([]);
    expect((await status(requestId)).body.capturedAmount).toBe("0");
  });
});

describe("generateCommerceCaptureCalldata (POST /v2/commerce-payments/{requestId}/capture/calldata)", () => {
  it("answers capturePayment for the operator, decoding to the capture, and changes nothing", async () => {
    const { requestId, paymentReference } = await authorized();
    const answer = await act(requestId, "capture/calldata", {
      captureAmount: "400000",
      feeBps: 250,
      feeReceiver,
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      requestId,
      calldata: expect.any(String),
      to: wrapper,
      value: "0",
      operator,
    });
    expect(decodeFunctionData({ abi: commerceEscrowWrapperAbi, data: answer.body.calldata })).toEqual({
      functionName: "capturePayment",
      args: [paymentReference, 400000n, 250, feeReceiver],
    });
    expect(answer.body.calldata).toBe(
      `0xa2615767${paymentReference.slice(2)}${"0".repeat(48)}${(400000).toString(16).padStart(64, "0")}${(250).toString(16).padStart(64, "0")}${feeReceiver.slice(2).toLowerCase().padStart(64, "0")}`,
    );
    expect((await status(requestId)).body.capturedAmount).toBe("0");
    const tooMuch = await act(requestId, "capture/calldata", { captureAmount: "1000001" });
    expect(tooMuch.body.errors.map((issue: { path: string }) => issue.path)).toEqual(["/body/captureAmount"]);
  });
});

describe("voidCommercePayment (POST /v2/commerce-payments/{requestId}/void)", () => {
  it("returns what is left of the hold, keeps what was captured, and allows nothing after", async () => {
    const { requestId } = await authorized();
    await act(requestId, "capture", { captureAmount: "250000" });
    const voided = await act(requestId, "void", { reason: "out_of_stock" });
    expect(voided.body).toEqual({
      requestId,
      status: "VOIDED",
      transactionHash: sandboxHash(requestId, "void", 2),
      voidedAmount: "750000",
    });
    expect((await status(requestId)).body).toMatchObject({
      status: "VOIDED",
      capturedAmount: "250000",
      voidedAmount: "750000",
      voidReason: "out_of_stock",
    });
    expect((await act(requestId, "capture", { captureAmount: "1" })).status).toBe(400);
    expect((await act(requestId, "void")).status).toBe(400);
  });
});

describe("generateCommerceVoidCalldata (POST /v2/commerce-payments/{requestId}/void/calldata)", () => {
  it("answers voidPayment of the payment's reference for an authorized payment only", async () => {
    const { requestId, paymentReference } = (await create()).body;
    expect((await act(requestId, "void/calldata")).status).toBe(400);
    await act(requestId, "authorize");
    const answer = await act(requestId, "void/calldata");
    expect(answer.body).toEqual({
      requestId,
      calldata: `0x4eff2760${paymentReference.slice(2)}${"0".repeat(48)}`,
      to: wrapper,
      value: "0",
      operator,
    });
    expect(decodeFunctionData({ abi: commerceEscrowWrapperAbi, data: answer.body.calldata })).toEqual({
      functionName: "voidPayment",
      args: [paymentReference],
    });
  });
});

describe("getCommercePaymentStatus (GET /v2/commerce-payments/{requestId}/status)", () => {
  it("answers 404 for a request that is no commerce payment, and for another account's", async () => {
    const plain = await server.call("POST", "/v2/request", {
      body: { payee, amount: "1", invoiceCurrency: "USDC-base", paymentCurrency: "USDC-base" },
    });
    expect((await status(plain.body.requestId)).status).toBe(404);
    const { requestId } = (await create()).body;
    expect((await status(requestId, asOtherAccount)).status).toBe(404);
  });
});
