import { decodeFunctionData, parseAbi } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getOfficialContracts } from "../../src/chain/index.ts";
import { readTypedData } from "../../src/wire/typed-data.ts";
import {
  asOtherAccount,
  feeAddress,
  payee,
  problemErrors,
  startTestServerWithOtherAccount,
  type TestServer,
} from "./helpers.ts";

// Local keys, known to the test only: they sign permits as a payer's wallet would.
const subscriber = privateKeyToAccount("0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba");
const stranger = privateKeyToAccount("0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e");
const baseProxy = "0xDc8781fFAb20Fef4aB0472c3d6E50073B540Ed9e";
const usdcBase = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
const approveAbi = parseAbi(["function approve(address spender, uint256 amount)"]);

let server: TestServer;
beforeAll(async () => {
  server = await startTestServerWithOtherAccount();
});
afterAll(() => server.close());

const monthly = (payer: string = subscriber.address, extra: Record<string, unknown> = {}) => ({
  payee,
  amount: "50",
  invoiceCurrency: "USDC-base",
  paymentCurrency: "USDC-base",
  recurrence: { startDate: "2026-05-01", frequency: "MONTHLY", totalPayments: 12, payer },
  ...extra,
});

async function createRecurring(body: Record<string, unknown> = monthly()) {
  const answer = await server.call("POST", "/v2/payouts", { body });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

describe("createPayout (POST /v2/payouts), one-off", () => {
  it("creates a request and answers its calldata with BigNumber values, the tutorial's shape", async () => {
    const answer = await server.call("POST", "/v2/payouts", {
      body: {
        payee,
        amount: "0.2",
        invoiceCurrency: "ETH-sepolia-sepolia",
        paymentCurrency: "ETH-sepolia-sepolia",
      },
    });
    expect(answer.status).toBe(201);
    const { requestId, paymentReference, transactions, metadata } = answer.body;
    expect(transactions).toEqual([
      {
        to: getOfficialContracts("sepolia")?.ethereumFeeProxy,
        data: expect.stringMatching(/^0xb868980b/),
        value: { type: "BigNumber", hex: "0x02c68af0bb140000" },
      },
    ]);
    expect(metadata).toEqual({
      stepsRequired: 1,
      needsApproval: false,
      approvalTransactionIndex: null,
      paymentTransactionIndex: 0,
      hasEnoughBalance: true,
      hasEnoughGas: true,
    });
    const stored = await server.call("GET", `/v2/request/${requestId}`);
    expect(stored.body).toMatchObject({ requestId, paymentReference, hasBeenPaid: false });
  });

  it("puts the approval at index 0 and the payment at 1, with the fee in the calldata and the metadata", async () => {
    const answer = await server.call("POST", "/v2/payouts", {
      body: {
        payee,
        amount: "100",
        invoiceCurrency: "USD",
        paymentCurrency: "USDC-base",
        feePercentage: "2.5",
        feeAddress,
        reference: "ORDER-1",
      },
    });
    const { transactions, metadata, requestId } = answer.body;
    expect(metadata).toMatchObject({
      stepsRequired: 2,
      needsApproval: true,
      approvalTransactionIndex: 0,
      paymentTransactionIndex: 1,
      platformFee: { percentage: "2.5", address: feeAddress },
    });
    expect(transactions.map((transaction: { value: unknown }) => transaction.value)).toEqual([
      { type: "BigNumber", hex: "0x00" },
      { type: "BigNumber", hex: "0x00" },
    ]);
    expect(decodeFunctionData({ abi: approveAbi, data: transactions[0].data }).args).toEqual([
      getOfficialContracts("base")?.erc20FeeProxy,
      102_500_000n,
    ]);
    expect((await server.call("GET", `/v2/request/${requestId}`)).body.reference).toBe("ORDER-1");
  });

  it("leaves the approval out when the paying wallet's allowance covers the payment", async () => {
    const wallet = "0x2e2E5C79F571ef1658d4C2d3684a1FE97DD30570";
    await server.call("POST", "/sandbox/wallets", {
      body: {
        address: wallet,
        balances: [
          { currency: "USDC-base", amount: "10" },
          { currency: "ETH-base-base", amount: "1" },
        ],
        allowances: [
          { currency: "USDC-base", spender: getOfficialContracts("base")?.erc20FeeProxy, amount: "10" },
        ],
      },
    });
    const answer = await server.call("POST", "/v2/payouts", {
      auth: "clientId",
      body: {
        payee,
        amount: "10",
        invoiceCurrency: "USDC-base",
        paymentCurrency: "USDC-base",
        payerAddress: wallet,
      },
    });
    expect(answer.body.transactions).toHaveLength(1);
    expect(answer.body.metadata).toEqual({
      stepsRequired: 1,
      needsApproval: false,
      approvalTransactionIndex: null,
      paymentTransactionIndex: 0,
      hasEnoughBalance: true,
      hasEnoughGas: true,
    });
  });

  it("refuses a fee without its address, and two different paying wallets, naming the field", async () => {
    const body = { payee, amount: "10", invoiceCurrency: "USDC-base", paymentCurrency: "USDC-base" };
    const lonelyFee = await server.call("POST", "/v2/payouts", { body: { ...body, feePercentage: "1" } });
    expect(problemErrors(lonelyFee, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/feeAddress", message: "is required together with feePercentage" },
    ]);
    const twoWallets = await server.call("POST", "/v2/payouts", {
      body: { ...body, payerWallet: subscriber.address, payerAddress: stranger.address },
    });
    expect(problemErrors(twoWallets, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/payerAddress",
        message: `must equal payerWallet (${subscriber.address}) when both are sent`,
      },
    ]);
  });
});

describe("createPayout (POST /v2/payouts), recurring", () => {
  it("answers a pending recurring payment, the approval of the proxy and the permit to sign", async () => {
    const answer = await createRecurring(monthly(subscriber.address, { feePercentage: "1", feeAddress }));
    expect(answer.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(answer.transactions).toEqual([
      { to: usdcBase, data: expect.stringMatching(/^0x095ea7b3/), value: "0x0" },
    ]);
    expect(decodeFunctionData({ abi: approveAbi, data: answer.transactions[0].data }).args).toEqual([
      baseProxy,
      606_000_000n,
    ]);
    const permit = answer.recurringPaymentPermit;
    expect(permit.domain).toEqual({
      name: "ERC20RecurringPaymentProxy",
      version: "1",
      chainId: 8453,
      verifyingContract: baseProxy,
    });
    expect(permit.values).toEqual({
      subscriber: subscriber.address,
      token: usdcBase,
      recipient: payee,
      feeAddress,
      amount: "50000000",
      feeAmount: "500000",
      gasFee: "0",
      periodSeconds: 2_592_000,
      firstExec: 1_777_593_600,
      totalExecutions: 12,
      nonce: expect.stringMatching(/^\d+$/),
      deadline: 1_777_593_600 + 12 * 2_592_000,
    });
    expect(answer.metadata).toEqual({
      stepsRequired: 2,
      totalNeededAllowance: "606000000",
      currentAllowance: "0",
      additionalAllowanceNeeded: "606000000",
      existingPaymentsAmount: "0",
    });
    const status = await server.call("GET", `/v2/payouts/recurring/${answer.id}`);
    expect(status.body).toMatchObject({ status: "pending", processedPayments: 0, nextPaymentDate: null });
  });

  it("sends no approval when the payer's allowance for the proxy covers the schedule", async () => {
    const payer = privateKeyToAccount("0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356");
    await server.call("POST", "/sandbox/wallets", {
      body: {
        address: payer.address,
        allowances: [{ currency: "USDC-base", spender: baseProxy, amount: "1000" }],
      },
    });
    const answer = await createRecurring(monthly(payer.address));
    expect(answer.transactions).toEqual([]);
    expect(answer.metadata).toMatchObject({
      stepsRequired: 1,
      currentAllowance: "1000000000",
      additionalAllowanceNeeded: "0",
    });
  });

  it("refuses a payer who is the payee, a native currency and a start in the past", async () => {
    const self = await server.call("POST", "/v2/payouts", { body: monthly(payee) });
    expect(problemErrors(self, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/recurrence/payer", message: `must not be the payee ${payee}` },
    ]);
    const native = await server.call("POST", "/v2/payouts", {
      body: monthly(subscriber.address, {
        invoiceCurrency: "ETH-base-base",
        paymentCurrency: "ETH-base-base",
      }),
    });
    expect(problemErrors(native, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/paymentCurrency",
        message:
          "must be an ERC-20 token for a recurring payout (the recurring payment proxy moves ERC-20 tokens only), got ETH-base-base",
      },
    ]);
    const past = await server.call("POST", "/v2/payouts", {
      body: { ...monthly(), recurrence: { ...monthly().recurrence, startDate: "2026-01-01" } },
    });
    expect(problemErrors(past, "/problems/validation-failed", 400)[0]?.path).toBe(
      "/body/recurrence/startDate",
    );
  });

  it("refuses 256 payments, which the permit's uint8 cannot hold", async () => {
    const answer = await server.call("POST", "/v2/payouts", {
      body: { ...monthly(), recurrence: { ...monthly().recurrence, totalPayments: 256 } },
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400).map((issue) => issue.path)).toEqual([
      "/body/recurrence/totalPayments",
    ]);
  });
});

describe("submitRecurringPaymentSignature (POST /v2/payouts/recurring/{id})", () => {
  it("activates the recurring payment with the payer's signature of the permit, once", async () => {
    const { id, recurringPaymentPermit } = await createRecurring();
    const permitSignature = await subscriber.signTypedData(readTypedData(recurringPaymentPermit) as never);
    const answer = await server.call("POST", `/v2/payouts/recurring/${id}`, { body: { permitSignature } });
    expect(answer.status).toBe(201);
    expect(answer.body).toEqual({
      id,
      status: "active",
      message: "Recurring payment activated successfully",
    });
    const status = await server.call("GET", `/v2/payouts/recurring/${id}`);
    expect(status.body).toMatchObject({ status: "active", nextPaymentDate: "2026-05-01T00:00:00.000Z" });

    const again = await server.call("POST", `/v2/payouts/recurring/${id}`, { body: { permitSignature } });
    problemErrors(again, "/problems/invalid-state", 400);
    expect(again.body.detail).toBe(
      `Recurring payment ${id} is active, not pending: its permit signature was already accepted.`,
    );
  });

  it("refuses another wallet's signature, and the payer's over other values, leaving it pending", async () => {
    const { id, recurringPaymentPermit } = await createRecurring();
    const typedData = readTypedData(recurringPaymentPermit);
    const byStranger = await stranger.signTypedData(typedData as never);
    const tampered = await subscriber.signTypedData({
      ...typedData,
      message: { ...typedData.message, amount: "1" },
    } as never);
    for (const permitSignature of [byStranger, tampered]) {
      const answer = await server.call("POST", `/v2/payouts/recurring/${id}`, { body: { permitSignature } });
      expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
        {
          path: "/body/permitSignature",
          message: `is not a signature of the recurring payment permit by the payer ${subscriber.address}`,
        },
      ]);
    }
    const notASignature = `0x${"ab".repeat(64)}05`;
    const garbled = await server.call("POST", `/v2/payouts/recurring/${id}`, {
      body: { permitSignature: notASignature },
    });
    expect(problemErrors(garbled, "/problems/validation-failed", 400)[0]?.path).toBe("/body/permitSignature");
    expect((await server.call("GET", `/v2/payouts/recurring/${id}`)).body.status).toBe("pending");
  });

  it("refuses a recurring payment created through the sandbox, and another account's", async () => {
    const sandbox = await server.call("POST", "/sandbox/recurring-payments", {
      body: {
        status: "pending",
        payer: subscriber.address,
        payee,
        currency: "USDC-base",
        amount: "5",
        totalPayments: 3,
        spender: baseProxy,
      },
    });
    const signature = await subscriber.signTypedData({
      domain: { name: "x" },
      types: { T: [{ name: "a", type: "uint256" }] },
      primaryType: "T",
      message: { a: 1n },
    });
    const withoutPermit = await server.call("POST", `/v2/payouts/recurring/${sandbox.body.id}`, {
      body: { permitSignature: signature },
    });
    problemErrors(withoutPermit, "/problems/invalid-state", 400);
    const { id } = await createRecurring();
    const foreign = await server.call("POST", `/v2/payouts/recurring/${id}`, {
      ...asOtherAccount,
      body: { permitSignature: signature },
    });
    problemErrors(foreign, "/problems/not-found", 404);
  });

  it("refuses a permit past its deadline", async () => {
    const { id, recurringPaymentPermit } = await createRecurring({
      ...monthly(),
      recurrence: { ...monthly().recurrence, frequency: "DAILY", totalPayments: 2 },
    });
    const permitSignature = await subscriber.signTypedData(readTypedData(recurringPaymentPermit) as never);
    await server.call("POST", "/sandbox/clock", { body: { now: "2026-05-04T00:00:00.000Z" } });
    try {
      const late = await server.call("POST", `/v2/payouts/recurring/${id}`, { body: { permitSignature } });
      problemErrors(late, "/problems/invalid-state", 400);
      expect(late.body.detail).toBe(
        `The permit of recurring payment ${id} expired at 2026-05-03T00:00:00.000Z; create the recurring payout again.`,
      );
    } finally {
      await server.call("POST", "/sandbox/clock", { body: { now: "2026-04-12T10:00:00.000Z" } });
    }
  });
});

describe("getRecurringPaymentStatus (GET /v2/payouts/recurring/{id})", () => {
  it("follows the executions: each period's request and payment, a failure that pauses it, then completion", async () => {
    const { id, recurringPaymentPermit } = await createRecurring({
      ...monthly(),
      recurrence: { ...monthly().recurrence, totalPayments: 2 },
    });
    const permitSignature = await subscriber.signTypedData(readTypedData(recurringPaymentPermit) as never);
    await server.call("POST", `/v2/payouts/recurring/${id}`, { body: { permitSignature } });
    const execute = (body: Record<string, unknown>) =>
      server.call("POST", `/sandbox/recurring-payments/${id}/executions`, { body });

    const first = `0x${"01".repeat(32)}`;
    expect((await execute({ outcome: "success", txHash: first })).status).toBe(201);
    const afterFirst = await server.call("GET", `/v2/payouts/recurring/${id}`, { auth: "clientId" });
    expect(afterFirst.body).toMatchObject({
      id,
      status: "active",
      processedPayments: 1,
      totalPayments: 2,
      lastPaymentDate: "2026-04-12T10:00:00.000Z",
      nextPaymentDate: "2026-05-31T00:00:00.000Z",
      payments: [{ amount: "50", txHash: first, timestamp: "2026-04-12T10:00:00.000Z" }],
    });
    expect(afterFirst.body.requests).toHaveLength(1);
    expect(afterFirst.body.payments[0].requestId).toBe(afterFirst.body.requests[0].requestId);

    await execute({ outcome: "failure", subStatus: "insufficient_funds" });
    const paused = await server.call("GET", `/v2/payouts/recurring/${id}`);
    expect(paused.body).toMatchObject({
      status: "paused",
      processedPayments: 1,
      nextPaymentDate: null,
      failureCount: 1,
      failureReason: "insufficient_funds",
    });
    expect(paused.body.requests).toHaveLength(2);

    await server.call("PATCH", `/v2/payouts/recurring/${id}`, { body: { action: "unpause" } });
    const second = `0x${"02".repeat(32)}`;
    await execute({ outcome: "success", txHash: second });
    const done = await server.call("GET", `/v2/payouts/recurring/${id}`);
    expect(done.body).toMatchObject({ status: "completed", processedPayments: 2, nextPaymentDate: null });
    expect(done.body.requests).toHaveLength(2);
    expect(done.body.payments.map((payment: { txHash: string }) => payment.txHash)).toEqual([first, second]);
    expect(done.body).not.toHaveProperty("failureCount");
    const period = await server.call("GET", `/v2/request/${done.body.requests[1].requestId}`);
    expect(period.body).toMatchObject({ hasBeenPaid: true, txHash: second });
  });

  it("answers 404 for another account's recurring payment", async () => {
    const { id } = await createRecurring();
    problemErrors(
      await server.call("GET", `/v2/payouts/recurring/${id}`, asOtherAccount),
      "/problems/not-found",
      404,
    );
  });

  it("lets a pending recurring payment be cancelled, with the approval reset", async () => {
    const { id } = await createRecurring();
    const cancelled = await server.call("PATCH", `/v2/payouts/recurring/${id}`, {
      body: { action: "cancel" },
    });
    expect(cancelled.body).toMatchObject({ id, status: "cancelled", metadata: { remainingPayments: 12 } });
    expect(decodeFunctionData({ abi: approveAbi, data: cancelled.body.transactions[0].data }).args).toEqual([
      baseProxy,
      0n,
    ]);
  });
});
