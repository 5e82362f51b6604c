import { decodeFunctionData } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  batchConversionPaymentsAbi,
  erc20FeeProxyAbi,
  getOfficialContracts,
} from "../../../../src/chain/index.ts";
import {
  browserOrigin,
  createSecurePayment,
  feeAddress,
  payee,
  payer,
  problemErrors,
  schemaErrors,
  startInstant,
  startTestServer,
  type TestServer,
  usdcOnBase,
} from "../../helpers.ts";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const payCalldata = (token: string, query = "", options = {}) =>
  server.call("GET", `/v2/secure-payments/${token}/pay${query}`, options);

/** Gives the payer 500 USDC and 1 ETH on Base, and an allowance of the fee proxy when asked. */
async function fundPayer({ allowFeeProxy }: { allowFeeProxy: boolean }) {
  const answer = await server.call("POST", "/sandbox/wallets", {
    body: {
      address: payer,
      balances: [
        { currency: "USDC-base", amount: "500" },
        { currency: "ETH-base-base", amount: "1" },
      ],
      allowances: allowFeeProxy
        ? [{ currency: "USDC-base", spender: getOfficialContracts("base")?.erc20FeeProxy, amount: "500" }]
        : [],
    },
  });
  expect(answer.status, answer.text).toBe(200);
}

/** The requests a batchPayments call pays: recipient, amount and reference of each. */
function batchItems(data: `0x${string}`) {
  const { args } = decodeFunctionData({ abi: batchConversionPaymentsAbi, data });
  const [metaDetails] = args as unknown as [
    { requestDetails: { recipient: string; requestAmount: bigint; paymentReference: string }[] }[],
  ];
  return metaDetails.flatMap((meta) =>
    meta.requestDetails.map((detail) => [detail.recipient, detail.requestAmount, detail.paymentReference]),
  );
}

describe("getSecurePaymentCalldata (GET /v2/secure-payments/{token}/pay)", () => {
  it("answers a single link with the transactions GET /v2/request/{id}/pay builds, and where the payment sits", async () => {
    const { token, requestIds } = await createSecurePayment(server);
    const answer = await payCalldata(token, `?wallet=${payer}`);
    expect(answer.status).toBe(200);
    expect(schemaErrors("SecurePaymentSingleCalldata", answer.body)).toBe("");
    const direct = await server.call("GET", `/v2/request/${requestIds[0]}/pay?wallet=${payer}`);
    const request = await server.call("GET", `/v2/request/${requestIds[0]}`);
    expect(answer.body).toEqual({
      paymentType: "single",
      transactions: direct.body.transactions,
      feeBundle: null,
      metadata: { ...direct.body.metadata, paymentTransactionIndex: 1 },
      paymentReference: request.body.paymentReference,
      flow: "incoming",
    });
    expect(answer.body.paymentReference).toMatch(/^0x[0-9a-f]{16}$/);
    // The payment transaction carries that reference on chain.
    const { args } = decodeFunctionData({ abi: erc20FeeProxyAbi, data: answer.body.transactions[1].data });
    expect(args[3]).toBe(answer.body.paymentReference);
    expect(answer.body.metadata).toMatchObject({
      stepsRequired: 2,
      needsApproval: true,
      approvalTransactionIndex: 0,
    });
    expect(answer.body.transactions[1].to).toBe(getOfficialContracts("base")?.erc20FeeProxy);
  });

  it("answers flow outgoing for a payout link, with its request's payment reference", async () => {
    const created = await server.call("POST", "/v2/secure-payments/payouts", {
      body: { recipient: payee, network: "base", currency: "USDC-base", amount: "40" },
    });
    expect(created.status).toBe(201);
    const answer = await payCalldata(created.body.token, `?wallet=${payer}`);
    const request = await server.call("GET", `/v2/request/${created.body.requestIds[0]}`);
    expect([answer.body.paymentType, answer.body.flow, answer.body.paymentReference]).toEqual([
      "single",
      "outgoing",
      request.body.paymentReference,
    ]);
  });

  it("leaves the approval out once the wallet book's allowance covers the payment, and pays what is left", async () => {
    const { token, requestIds } = await createSecurePayment(server, [usdcOnBase("125.00")]);
    await fundPayer({ allowFeeProxy: true });
    const partial = await server.call("POST", `/sandbox/requests/${requestIds[0]}/payments`, {
      body: { outcome: "partial", amount: "25" },
    });
    expect(partial.status).toBe(201);
    const answer = await payCalldata(token, `?wallet=${payer}`);
    expect(answer.body.metadata).toEqual({
      stepsRequired: 1,
      needsApproval: false,
      approvalTransactionIndex: null,
      paymentTransactionIndex: 0,
      hasEnoughBalance: true,
      hasEnoughGas: true,
    });
    const direct = await server.call("GET", `/v2/request/${requestIds[0]}/pay?wallet=${payer}&amount=100`);
    expect(answer.body.transactions).toEqual(direct.body.transactions);
  });

  it("carries the calling client ID's fee, as the token check states it", async () => {
    const withFee = await server.call("POST", "/v2/client-ids", {
      body: { label: "Fee", allowedDomains: [browserOrigin], feePercentage: "1", feeAddress },
    });
    const headers = { "x-client-id": withFee.body.clientId, origin: browserOrigin };
    const { token, requestIds } = await createSecurePayment(server);
    const check = await server.call("GET", `/v2/secure-payments/${token}`, { auth: "none", headers });
    expect(check.body).toMatchObject({ feeAmount: "1.25", feeAddress });
    const answer = await payCalldata(token, "", { auth: "none", headers });
    const direct = await server.call("GET", `/v2/request/${requestIds[0]}/pay`, { auth: "none", headers });
    expect(answer.body.transactions).toEqual(direct.body.transactions);
    const { args } = decodeFunctionData({ abi: erc20FeeProxyAbi, data: answer.body.transactions[1].data });
    // transferFromWithReferenceAndFee(token, to, amount, reference, feeAmount, feeAddress)
    expect([args[2], args[4], args[5]]).toEqual([125_000_000n, 1_250_000n, feeAddress]);
  });

  it("answers a batch link with one batchPayments call over the requests still due", async () => {
    const second = "0x1f9840a85d5aF5bf1D1762F925BDADdC4201F984";
    const { token, requestIds } = await createSecurePayment(server, [
      usdcOnBase("10"),
      usdcOnBase("20", second),
    ]);
    await fundPayer({ allowFeeProxy: false });
    const answer = await payCalldata(token, `?wallet=${payer}`);
    expect(answer.status).toBe(200);
    expect(schemaErrors("SecurePaymentBatchCalldata", answer.body)).toBe("");
    const batchContract = getOfficialContracts("base")?.batchConversionPayments;
    expect(answer.body.batchPaymentTransaction.to).toBe(batchContract);
    expect(answer.body.batchPaymentTransaction.value).toEqual({ type: "BigNumber", hex: "0x00" });
    const references = await Promise.all(
      requestIds.map(
        async (id) => (await server.call("GET", `/sandbox/requests/${id}`)).body.paymentReference,
      ),
    );
    expect(batchItems(answer.body.batchPaymentTransaction.data)).toEqual([
      ["0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7", 10_000_000n, references[0]],
      [second, 20_000_000n, references[1]],
    ]);
    const paid = await server.call("POST", `/sandbox/requests/${requestIds[0]}/payments`, {
      body: { outcome: "paid" },
    });
    expect(paid.status).toBe(201);
    const rest = await payCalldata(token, `?wallet=${payer}`);
    expect(batchItems(rest.body.batchPaymentTransaction.data)).toEqual([
      [second, 20_000_000n, references[1]],
    ]);
    expect(rest.body.ERC20ApprovalTransactions).toHaveLength(1);
    expect(rest.body.metadata).toEqual({ hasEnoughBalance: true, hasEnoughGas: true });
  });

  it("answers like the token check: 404 unknown, 403 expired or invalidated, 409 completed", async () => {
    problemErrors(await payCalldata("01KM9S346Q3D25VT4F5V37E3S3"), "/problems/not-found", 404);
    const expiring = await createSecurePayment(server);
    server.clock.set("2026-04-19T10:00:00.000Z");
    try {
      const expired = await payCalldata(expiring.token);
      problemErrors(expired, "/problems/secure-payment-not-payable", 403);
      expect(expired.body.detail).toBe(
        `The secure payment ${expiring.token} expired on 2026-04-19T10:00:00.000Z; ask the merchant for a new payment link.`,
      );
    } finally {
      server.clock.set(startInstant);
    }
    const invalidated = await createSecurePayment(server);
    await server.call("PATCH", `/sandbox/secure-payments/${invalidated.token}`, {
      body: { status: "invalidated" },
    });
    problemErrors(await payCalldata(invalidated.token), "/problems/secure-payment-not-payable", 403);
    const completed = await createSecurePayment(server);
    await server.call("POST", `/sandbox/requests/${completed.requestIds[0]}/payments`, {
      body: { outcome: "paid" },
    });
    problemErrors(await payCalldata(completed.token), "/problems/secure-payment-completed", 409);
  });

  it("refuses the zero address as wallet, and the real service's cross-chain parameters, naming them", async () => {
    const { token } = await createSecurePayment(server);
    const zero = await payCalldata(token, "?wallet=0x0000000000000000000000000000000000000000");
    expect(problemErrors(zero, "/problems/validation-failed", 400)).toEqual([
      { path: "/query/wallet", message: "must not be the zero address: name the wallet that pays" },
    ]);
    const crossChain = await payCalldata(token, "?chain=BASE&token=USDC");
    expect(problemErrors(crossChain, "/problems/validation-failed", 400).map((e) => e.path)).toContain(
      "/query/chain",
    );
    expect((await payCalldata(token, "", { auth: "none" })).status).toBe(401);
  });
});
