import { decodeFunctionData, maxUint256, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findToken } from "../../../../src/chain/index.ts";
import {
  createSecurePayment,
  payee,
  payer,
  problemErrors,
  schemaErrors,
  startTestServer,
  type TestServer,
  usdcOnBase,
} from "../../helpers.ts";

const abi = parseAbi(["function approve(address spender, uint256 amount)"]);
const proxyAbi = parseAbi([
  "function transferFromWithReferenceAndFee(address token, address to, uint256 amount, bytes paymentReference, uint256 feeAmount, address feeAddress)",
]);
const usdc = findToken("USDC-base") as NonNullable<ReturnType<typeof findToken>>;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function newRequest(item = usdcOnBase()) {
  const { requestIds } = await createSecurePayment(server, [item]);
  const requestId = requestIds[0] as string;
  const status = await server.call("GET", `/v2/request/${requestId}`);
  return { requestId, paymentReference: status.body.paymentReference as string };
}

const setWallet = (body: unknown) => server.call("POST", "/sandbox/wallets", { body });

describe("getPayCalldata (GET /v2/request/{requestId}/pay), cross-chain", () => {
  it("requires chain and token together", async () => {
    const { requestId } = await newRequest();
    const answer = await server.call("GET", `/v2/request/${requestId}/pay?chain=ARBITRUM`);
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      { path: "/query/token", message: "is required together with chain" },
    ]);
  });

  it("answers the source network's transactions and a payment intent with an approval of Permit2 for USDT", async () => {
    const { requestId, paymentReference } = await newRequest(usdcOnBase("50"));
    const answer = await server.call(
      "GET",
      `/v2/request/${requestId}/pay?chain=ARBITRUM&token=USDT&wallet=${payer}`,
    );
    expect(answer.status).toBe(200);
    expect(schemaErrors("CrossChainPayCalldata", answer.body)).toBe("");
    expect(answer.body.paymentIntentId).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(answer.body.metadata).toEqual({
      stepsRequired: 2,
      needsApproval: true,
      approvalTransactionIndex: 0,
      paymentTransactionIndex: 1,
      hasEnoughBalance: false,
      routeType: "crosschain",
      supportsEIP2612: false,
    });
    // On the source network: an approval of its ERC20FeeProxy, then the deposit through it.
    const arbitrumProxy = "0x0DfbEe143b42B41eFC5A6F87bFD1fFC78c2f0aC9";
    const [approve, deposit] = answer.body.transactions;
    expect(approve.to).toBe("0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9");
    expect(approve.value).toBe("0x0");
    expect(decodeFunctionData({ abi, data: approve.data }).args).toEqual([arbitrumProxy, 50_000_000n]);
    expect(deposit.to).toBe(arbitrumProxy);
    expect(deposit.value).toBe("0x0");
    const depositArgs = decodeFunctionData({ abi: proxyAbi, data: deposit.data }).args;
    expect(depositArgs[0]).toBe("0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9");
    expect(depositArgs[2]).toBe(50_000_000n);
    expect(depositArgs[3]).toBe(paymentReference);
    expect(answer.body.approvalPermitPayload).toBeNull();
    const approval = answer.body.approvalCalldata;
    expect(approval.to).toBe("0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9");
    expect(approval.value).toBe("0x0");
    expect(decodeFunctionData({ abi, data: approval.data }).args).toEqual([
      "0x000000000022D473030F116dDEE9F6B43aC78BA3",
      maxUint256,
    ]);
    const intent = JSON.parse(answer.body.paymentIntent);
    expect(intent.domain).toEqual({
      name: "Permit2",
      chainId: 42161,
      verifyingContract: "0x000000000022D473030F116dDEE9F6B43aC78BA3",
    });
    expect(intent.values.permitted).toEqual([
      { token: "0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9", amount: "50000000" },
    ]);
    expect(intent.values.witness.source).toEqual({
      account: payer,
      network_id: "42161",
      payment_token: "0xFd086bC7CD5C481DCC9C85ebE478A1C0b69FCbb9",
    });
    expect(intent.values.witness.destination).toEqual({
      account: payee,
      network_id: "8453",
      payment_token: usdc.address,
    });
  });

  it("answers a permit to sign for USDC, and nothing once Permit2's allowance suffices", async () => {
    const { requestId } = await newRequest(usdcOnBase("50"));
    const path = `/v2/request/${requestId}/pay?chain=OPTIMISM&token=USDC&wallet=${payer}`;
    const permit = await server.call("GET", path);
    expect(permit.body.metadata).toMatchObject({ routeType: "crosschain", supportsEIP2612: true });
    expect(permit.body.approvalCalldata).toBeNull();
    expect(JSON.parse(permit.body.approvalPermitPayload)).toMatchObject({
      primaryType: "Permit",
      domain: { chainId: 10, verifyingContract: "0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85" },
      values: { owner: payer, spender: "0x000000000022D473030F116dDEE9F6B43aC78BA3" },
    });
    await setWallet({
      address: payer,
      allowances: [
        { currency: "USDCn-optimism", spender: "0x000000000022D473030F116dDEE9F6B43aC78BA3", amount: "50" },
      ],
    });
    const allowed = await server.call("GET", path);
    expect(allowed.body.approvalPermitPayload).toBeNull();
    expect(allowed.body.approvalCalldata).toBeNull();
  });

  it("answers same-chain calldata when chain and token name the request's own", async () => {
    const { requestId } = await newRequest();
    const answer = await server.call("GET", `/v2/request/${requestId}/pay?chain=BASE&token=USDC`);
    expect(answer.body.transactions).toHaveLength(2);
  });

  it("refuses a wallet-less intent and requests the bridge cannot carry", async () => {
    const { requestId } = await newRequest();
    const noWallet = await server.call("GET", `/v2/request/${requestId}/pay?chain=ARBITRUM&token=USDC`);
    expect(problemErrors(noWallet, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/query/wallet",
        message: "is required for a cross-chain payment: the payment intent names the payer's account",
      },
    ]);
    const small = await newRequest(usdcOnBase("0.5"));
    const tooSmall = await server.call(
      "GET",
      `/v2/request/${small.requestId}/pay?chain=ARBITRUM&token=USDC&wallet=${payer}`,
    );
    expect(problemErrors(tooSmall, "/problems/validation-failed", 400)).toEqual([
      { path: "/path/requestId", message: "has an amount below 1, too small for a cross-chain payment" },
    ]);
    const dai = await newRequest({ payee, amount: "5", invoiceCurrency: "USD", paymentCurrency: "DAI-base" });
    const notCarried = await server.call(
      "GET",
      `/v2/request/${dai.requestId}/pay?chain=ARBITRUM&token=USDC&wallet=${payer}`,
    );
    expect(problemErrors(notCarried, "/problems/validation-failed", 400)[0]?.message).toMatch(
      /^pays in DAI-base, which the cross-chain bridge does not carry/,
    );
  });
});

describe("getPayCalldata (GET /v2/request/{requestId}/pay), off-ramp", () => {
  it("requires clientUserId and paymentDetailsId together, and both to exist", async () => {
    const { requestId } = await newRequest();
    const alone = await server.call("GET", `/v2/request/${requestId}/pay?clientUserId=ada`);
    expect(problemErrors(alone, "/problems/validation-failed", 400)).toEqual([
      { path: "/query/paymentDetailsId", message: "is required together with clientUserId" },
    ]);
    const unknownPayer = await server.call(
      "GET",
      `/v2/request/${requestId}/pay?clientUserId=nobody&paymentDetailsId=x`,
    );
    problemErrors(unknownPayer, "/problems/not-found", 404);
    expect(unknownPayer.body.detail).toBe(
      "No payer is registered under clientUserId 'nobody'; register it with POST /v2/payer first.",
    );

    const clientUserId = "ada@example.com";
    await server.call("POST", "/v2/payer", {
      body: {
        clientUserId,
        email: "ada@example.com",
        firstName: "Ada",
        lastName: "Lovelace",
        beneficiaryType: "individual",
        dateOfBirth: "1985-12-10",
        addressLine1: "1 Main St",
        city: "London",
        state: "LDN",
        postcode: "N1 9GU",
        country: "GB",
        nationality: "GB",
        phone: "+447700900123",
        ssn: "QQ123456C",
      },
    });
    const unknownDetails = await server.call(
      "GET",
      `/v2/request/${requestId}/pay?clientUserId=${clientUserId}&paymentDetailsId=x`,
    );
    problemErrors(unknownDetails, "/problems/not-found", 404);
    const details = await server.call(
      "POST",
      `/v1/payer/${encodeURIComponent(clientUserId)}/payment-details`,
      {
        body: {
          bankName: "Bank",
          accountName: "Ada Lovelace",
          beneficiaryType: "individual",
          currency: "GBP",
          addressLine1: "1 Main St",
          city: "London",
          country: "GB",
          dateOfBirth: "1985-12-10",
          postalCode: "N1 9GU",
          accountNumber: "12345678",
          sortCode: "123456",
        },
      },
    );
    const id = details.body.payment_detail.id;
    const answer = await server.call(
      "GET",
      `/v2/request/${requestId}/pay?clientUserId=${clientUserId}&paymentDetailsId=${id}`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.transactions).toHaveLength(2);
  });
});
