import { decodeFunctionData } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getOfficialContracts } from "../../../../src/chain/index.ts";
import {
  feeAddress,
  payee,
  problemErrors,
  startTestServerWithOtherAccount,
  type TestServer,
} from "../../helpers.ts";
import {
  approveAbi,
  baseProxy,
  createRecurring,
  monthly,
  stranger,
  subscriber,
} from "../../recurring-payout-support.ts";

const usdcBase = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServerWithOtherAccount();
});
afterAll(() => server.close());

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
    const answer = await createRecurring(
      server,
      monthly(subscriber.address, { feePercentage: "1", feeAddress }),
    );
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
    // The first period's request exists from the start: the status lists it, and it is unpaid.
    expect(answer.requestId).toMatch(/^01[0-9a-f]{64}$/);
    expect(status.body.requests.map((request: { requestId: string }) => request.requestId)).toEqual([
      answer.requestId,
    ]);
    const first = await server.call("GET", `/v2/request/${answer.requestId}`);
    expect(first.body).toMatchObject({ hasBeenPaid: false, status: "pending" });
    expect(first.body).not.toHaveProperty("originalRequestId");
  });

  it("sends no approval when the payer's allowance for the proxy covers the schedule", async () => {
    const payer = privateKeyToAccount("0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356");
    await server.call("POST", "/sandbox/wallets", {
      body: {
        address: payer.address,
        allowances: [{ currency: "USDC-base", spender: baseProxy, amount: "1000" }],
      },
    });
    const answer = await createRecurring(server, monthly(payer.address));
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
