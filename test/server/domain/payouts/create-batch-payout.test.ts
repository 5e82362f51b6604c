import { decodeFunctionData, getAddress, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  batchConversionPaymentsAbi,
  buildBatchPaymentTransactions,
  findToken,
  getOfficialContracts,
} from "../../../../src/chain/index.ts";
import {
  createSecurePayment,
  feeAddress,
  payee,
  payer,
  problemErrors,
  schemaErrors,
  startTestServer,
  type TestServer,
  usdcOnBase,
} from "../../helpers.ts";

const approveAbi = parseAbi(["function approve(address spender, uint256 amount)"]);
// The ABI fragment src/chain copies from @requestnetwork/smart-contracts (checked against it there).
const abi = batchConversionPaymentsAbi;
const base = getOfficialContracts("base") as NonNullable<ReturnType<typeof getOfficialContracts>>;
const usdc = findToken("USDC-base") as NonNullable<ReturnType<typeof findToken>>;
const dai = findToken("DAI-base") as NonNullable<ReturnType<typeof findToken>>;
const ethBase = findToken("ETH-base-base") as NonNullable<ReturnType<typeof findToken>>;
const otherPayee = "0xb07d2398d2004378cad234da0ef14f1c94a530e4";
const nativeItem = (amount: string) => ({
  payee: otherPayee,
  amount,
  invoiceCurrency: "ETH-base-base",
  paymentCurrency: "ETH-base-base",
});

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const batch = (body: unknown) => server.call("POST", "/v2/payouts/batch", { body });
const referenceOf = async (requestId: string) =>
  (await server.server.store.requests.get(requestId))?.paymentReference;

describe("createBatchPayout (POST /v2/payouts/batch)", () => {
  it("creates ERC-20 requests and answers 201 with an approval and batchPaymentTransaction", async () => {
    const answer = await batch({
      requests: [usdcOnBase("125.00"), usdcOnBase("80.50", otherPayee)],
      feePercentage: "1",
      feeAddress,
    });
    expect(answer.status).toBe(201);
    expect(schemaErrors("BatchPayout", answer.body)).toBe("");
    expect(Object.keys(answer.body)).toEqual([
      "ERC20ApprovalTransactions",
      "batchPaymentTransaction",
      "requests",
    ]);
    const [approval] = answer.body.ERC20ApprovalTransactions;
    expect(approval.to).toBe(usdc.address);
    expect(approval.value).toBe(0);
    expect(decodeFunctionData({ abi: approveAbi, data: approval.data }).args).toEqual([
      base.batchConversionPayments,
      207_555_000n,
    ]);

    const payment = answer.body.batchPaymentTransaction;
    expect(payment.to).toBe(base.batchConversionPayments);
    expect(payment.value).toEqual({ type: "BigNumber", hex: "0x00" });
    expect(payment.data.slice(0, 10)).toBe("0x92cddb91");
    const [metaDetails, pathsToUsd, fees] = decodeFunctionData({ abi, data: payment.data }).args;
    expect(pathsToUsd).toEqual([]);
    expect(fees).toBe(feeAddress);
    expect(metaDetails).toHaveLength(1);
    expect(metaDetails[0]?.paymentNetworkId).toBe(1n);
    const details = metaDetails[0]?.requestDetails ?? [];
    expect(details.map((d) => [d.recipient, d.requestAmount, d.path, d.feeAmount])).toEqual([
      [payee, 125_000_000n, [usdc.address], 1_250_000n],
      [getAddress(otherPayee), 80_500_000n, [usdc.address], 805_000n],
    ]);
    // The requests exist now, under the payment references the calldata carries, and the answer
    // names each, in the order of the batch.
    const created = [];
    for (const detail of details) {
      const request = await server.server.store.requests.first("paymentReference", detail.paymentReference);
      expect(request?.payee.toLowerCase()).toBe(detail.recipient.toLowerCase());
      created.push(request);
    }
    expect(answer.body.requests).toEqual([
      {
        requestId: created[0]?.requestId,
        paymentReference: details[0]?.paymentReference,
        payee,
        amount: "125.00",
        invoiceCurrency: "USD",
        paymentCurrency: "USDC-base",
      },
      {
        requestId: created[1]?.requestId,
        paymentReference: details[1]?.paymentReference,
        payee: otherPayee,
        amount: "80.50",
        invoiceCurrency: "USD",
        paymentCurrency: "USDC-base",
      },
    ]);
  });

  it("answers batchPaymentTransaction and an empty approval list for native payments, with their total as value", async () => {
    const answer = await batch({ requests: [nativeItem("0.01"), nativeItem("0.02")] });
    expect(Object.keys(answer.body)).toEqual([
      "ERC20ApprovalTransactions",
      "batchPaymentTransaction",
      "requests",
    ]);
    expect(answer.body.ERC20ApprovalTransactions).toEqual([]);
    const payment = answer.body.batchPaymentTransaction;
    expect(BigInt(payment.value.hex)).toBe(30_000_000_000_000_000n);
    const [metaDetails] = decodeFunctionData({ abi, data: payment.data }).args;
    expect(metaDetails.map((meta) => meta.paymentNetworkId)).toEqual([3n]);
  });

  it("answers a single batchPaymentTransaction when ERC-20 and native payments mix", async () => {
    const { requestIds } = await createSecurePayment(server, [usdcOnBase("125.00"), nativeItem("0.02")]);
    const answer = await batch({ requestIds, payer, feePercentage: "1", feeAddress });
    expect(Object.keys(answer.body)).toEqual([
      "ERC20ApprovalTransactions",
      "batchPaymentTransaction",
      "requests",
      "metadata",
    ]);
    expect(answer.body.requests.map((item: { requestId: string }) => item.requestId)).toEqual(requestIds);
    // The payer's wallet book holds nothing: it cannot pay.
    expect(answer.body.metadata).toEqual({
      hasEnoughBalance: false,
      hasEnoughGas: false,
      canMakePayment: false,
    });
    const payment = answer.body.batchPaymentTransaction;
    expect(payment.value).toEqual({ type: "BigNumber", hex: "0x47c3cb00768000" });
    const built = buildBatchPaymentTransactions({
      network: "base",
      payments: [
        {
          token: usdc,
          payee,
          amount: 125_000_000n,
          paymentReference: (await referenceOf(requestIds[0] as string)) as `0x${string}`,
          feeAmount: 1_250_000n,
        },
        {
          token: ethBase,
          payee: otherPayee,
          amount: 20_000_000_000_000_000n,
          paymentReference: (await referenceOf(requestIds[1] as string)) as `0x${string}`,
          feeAmount: 200_000_000_000_000n,
        },
      ],
      feeAddress,
      currentAllowances: { [usdc.address]: 0n },
    });
    expect(payment.data).toBe(built.batchPayment.data);
    expect(answer.body.ERC20ApprovalTransactions).toEqual(
      built.approvals.map(({ to, data }) => ({ to, data, value: 0 })),
    );
  });

  it("approves each token once, and only those the payer's simulated allowance does not cover", async () => {
    const items = [
      usdcOnBase("10"),
      usdcOnBase("5", otherPayee),
      { payee, amount: "3", invoiceCurrency: "USD", paymentCurrency: "DAI-base" },
    ];
    const both = await batch({ requests: items, payer });
    expect(both.body.ERC20ApprovalTransactions.map((tx: { to: string }) => tx.to)).toEqual([
      usdc.address,
      dai.address,
    ]);
    const [metaDetails] = decodeFunctionData({ abi, data: both.body.batchPaymentTransaction.data }).args;
    expect(metaDetails[0]?.paymentNetworkId).toBe(2n);

    await server.call("POST", "/sandbox/wallets", {
      body: {
        address: payer,
        allowances: [{ currency: "USDC-base", spender: base.batchConversionPayments, amount: "15" }],
      },
    });
    const one = await batch({ requests: items, payer });
    expect(one.body.ERC20ApprovalTransactions.map((tx: { to: string }) => tx.to)).toEqual([dai.address]);

    await server.call("POST", "/sandbox/wallets", {
      body: {
        address: payer,
        allowances: [{ currency: "DAI-base", spender: base.batchConversionPayments, amount: "3" }],
      },
    });
    const none = await batch({ requests: items, payer });
    expect(Object.keys(none.body)).toEqual([
      "ERC20ApprovalTransactions",
      "batchPaymentTransaction",
      "requests",
      "metadata",
    ]);
    expect(none.body.ERC20ApprovalTransactions).toEqual([]);
  });

  it("pays what is left of partially paid existing requests", async () => {
    const { requestIds } = await createSecurePayment(server, [usdcOnBase("100")]);
    await server.call("POST", `/sandbox/requests/${requestIds[0]}/payments`, {
      body: { outcome: "partial", amount: "40" },
    });
    const answer = await batch({ requestIds });
    const [metaDetails] = decodeFunctionData({
      abi,
      data: answer.body.batchPaymentTransaction.data,
    }).args;
    expect(metaDetails[0]?.requestDetails[0]?.requestAmount).toBe(60_000_000n);
  });

  it("refuses both lists, and neither, as one issue on the body", async () => {
    const both = await batch({ requests: [usdcOnBase()], requestIds: [`01${"a".repeat(64)}`] });
    expect(problemErrors(both, "/problems/validation-failed", 400)).toEqual([
      { path: "/body", message: "must contain exactly one of requests or requestIds" },
    ]);
    const neither = await batch({ payer });
    expect(problemErrors(neither, "/problems/validation-failed", 400)).toEqual([
      { path: "/body", message: "must contain exactly one of requests or requestIds" },
    ]);
  });

  it("refuses requests on several networks", async () => {
    const answer = await batch({
      requests: [usdcOnBase(), { ...usdcOnBase(), paymentCurrency: "USDC-optimism" }],
    });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/requests/1/paymentCurrency",
        message: "must be on network base like /body/requests/0, got USDC-optimism",
      },
    ]);
    const a = await createSecurePayment(server, [usdcOnBase()]);
    const b = await createSecurePayment(server, [{ ...usdcOnBase(), paymentCurrency: "USDC-optimism" }]);
    const existing = await batch({ requestIds: [a.requestIds[0], b.requestIds[0]] });
    expect(problemErrors(existing, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/requestIds/1",
        message: "must pay on base like the other requests of the batch, but pays on optimism",
      },
    ]);
  });

  it("answers 400 naming unknown and repeated request ids (they are in the body, not the path)", async () => {
    const { requestIds } = await createSecurePayment(server);
    const unknown = `01${"b".repeat(64)}`;
    const answer = await batch({ requestIds: [requestIds[0], unknown, requestIds[0]] });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/requestIds/1", message: `is not the id of a request of your account, got ${unknown}` },
      { path: "/body/requestIds/2", message: "repeats /body/requestIds/0; list each request once" },
    ]);
  });

  it("requires feePercentage and feeAddress together", async () => {
    const answer = await batch({ requests: [usdcOnBase()], feeAddress });
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/feePercentage", message: "is required together with feeAddress" },
    ]);
  });

  it("sends the batch fee to the payer when no fee address is given, never to the zero address", async () => {
    const withPayer = await batch({ requests: [usdcOnBase()], payer });
    expect(decodeFunctionData({ abi, data: withPayer.body.batchPaymentTransaction.data }).args[2]).toBe(
      payer,
    );
    const withoutPayer = await batch({ requests: [usdcOnBase()] });
    expect(decodeFunctionData({ abi, data: withoutPayer.body.batchPaymentTransaction.data }).args[2]).toBe(
      payee,
    );
  });

  it("refuses the zero address as payee, payer or fee address with a 400 naming the field", async () => {
    const zero = "0x0000000000000000000000000000000000000000";
    const zeroPayee = await batch({ requests: [usdcOnBase("10", zero)] });
    expect(problemErrors(zeroPayee, "/problems/validation-failed", 400)).toEqual([
      { path: "/body/requests/0/payee", message: "must not be the zero address: payments to it are burnt" },
    ]);
    const zeroPayer = await batch({ requests: [usdcOnBase("10")], payer: zero });
    expect(problemErrors(zeroPayer, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/payer",
        message: "must not be the zero address: name the wallet that signs the batch",
      },
    ]);
    const zeroFee = await batch({ requests: [usdcOnBase("10")], feePercentage: "1", feeAddress: zero });
    expect(problemErrors(zeroFee, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/body/feeAddress",
        message:
          "must not be the zero address when feePercentage is above 0 (1): the fee would be burnt or the payment would revert",
      },
    ]);
    expect(server.loggedErrors).toEqual([]);
  });

  it("accepts client IDs", async () => {
    const answer = await server.call("POST", "/v2/payouts/batch", {
      auth: "clientId",
      body: { requests: [usdcOnBase()] },
    });
    expect(answer.status).toBe(201);
  });
});
