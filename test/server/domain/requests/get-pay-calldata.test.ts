import { decodeFunctionData, parseAbi, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildPaymentTransactions, findToken, getOfficialContracts } from "../../../../src/chain/index.ts";
import { createDefaultConfig, type SandboxConfig } from "../../../../src/server/index.ts";
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

const abi = parseAbi([
  "function approve(address spender, uint256 amount)",
  "function transferFromWithReferenceAndFee(address token, address to, uint256 amount, bytes paymentReference, uint256 feeAmount, address feeAddress)",
  "function transferWithReferenceAndFee(address to, bytes paymentReference, uint256 feeAmount, address feeAddress) payable",
]);
const base = getOfficialContracts("base") as NonNullable<ReturnType<typeof getOfficialContracts>>;
const usdc = findToken("USDC-base") as NonNullable<ReturnType<typeof findToken>>;
const ethBase = findToken("ETH-base-base") as NonNullable<ReturnType<typeof findToken>>;
const clientFeeAddress = "0x0000000000000000000000000000000000000FEE";

function configWithClientFee(): SandboxConfig {
  const config = createDefaultConfig();
  const client = config.accounts[0]?.clientIds[0];
  if (client) {
    client.feePercentage = "1.5";
    client.feeAddress = clientFeeAddress;
  }
  return config;
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ config: configWithClientFee() });
});
afterAll(() => server.close());

async function newRequest(item = usdcOnBase()) {
  const { requestIds } = await createSecurePayment(server, [item]);
  const requestId = requestIds[0] as string;
  const record = await server.server.store.requests.get(requestId);
  return { requestId, paymentReference: record?.paymentReference as `0x${string}` };
}

const setWallet = (body: unknown) => server.call("POST", "/sandbox/wallets", { body });

describe("getPayCalldata (GET /v2/request/{requestId}/pay), ERC-20", () => {
  it("approves the official ERC20FeeProxy, then pays through it, when no wallet is given", async () => {
    const { requestId, paymentReference } = await newRequest();
    const answer = await server.call("GET", `/v2/request/${requestId}/pay`);
    expect(answer.status).toBe(200);
    expect(schemaErrors("PayCalldata", answer.body)).toBe("");
    const [approval, payment] = answer.body.transactions;
    expect(approval.to).toBe(usdc.address);
    expect(approval.value).toEqual({ type: "BigNumber", hex: "0x00" });
    expect(approval.data.slice(0, 10)).toBe("0x095ea7b3");
    expect(decodeFunctionData({ abi, data: approval.data }).args).toEqual([base.erc20FeeProxy, 125_000_000n]);
    expect(payment.to).toBe(base.erc20FeeProxy);
    expect(payment.value).toEqual({ type: "BigNumber", hex: "0x00" });
    expect(payment.data.slice(0, 10)).toBe("0xc219a14d");
    expect(decodeFunctionData({ abi, data: payment.data }).args).toEqual([
      usdc.address,
      payee,
      125_000_000n,
      paymentReference,
      0n,
      zeroAddress,
    ]);
    expect(answer.body.metadata).toEqual({
      stepsRequired: 2,
      needsApproval: true,
      approvalTransactionIndex: 0,
      paymentTransactionIndex: 1,
      hasEnoughBalance: true,
      hasEnoughGas: true,
    });
  });

  it("matches src/chain's builder byte for byte, fee included", async () => {
    const { requestId, paymentReference } = await newRequest();
    const answer = await server.call(
      "GET",
      `/v2/request/${requestId}/pay?feePercentage=2.5&feeAddress=${feeAddress}`,
    );
    const built = buildPaymentTransactions({
      network: "base",
      token: usdc,
      payee,
      amount: 125_000_000n,
      paymentReference,
      feeAmount: 3_125_000n,
      feeAddress,
    });
    expect(answer.body.transactions).toEqual(
      built.transactions.map(({ to, data }) => ({ to, data, value: { type: "BigNumber", hex: "0x00" } })),
    );
    expect(decodeFunctionData({ abi, data: answer.body.transactions[0].data }).args).toEqual([
      base.erc20FeeProxy,
      128_125_000n,
    ]);
  });

  it("skips the approval when the wallet's simulated allowance covers amount and fee", async () => {
    const { requestId } = await newRequest(usdcOnBase("100"));
    await setWallet({
      address: payer,
      balances: [
        { currency: "USDC-base", amount: "101" },
        { currency: "ETH-base-base", amount: "0.0002" },
      ],
      allowances: [{ currency: "USDC-base", spender: base.erc20FeeProxy, amount: "101" }],
    });
    const covered = await server.call(
      "GET",
      `/v2/request/${requestId}/pay?wallet=${payer}&feePercentage=1&feeAddress=${feeAddress}`,
    );
    expect(covered.body.transactions).toHaveLength(1);
    expect(covered.body.transactions[0].data.slice(0, 10)).toBe("0xc219a14d");
    expect(covered.body.metadata).toEqual({
      stepsRequired: 1,
      needsApproval: false,
      approvalTransactionIndex: null,
      paymentTransactionIndex: 0,
      hasEnoughBalance: true,
      hasEnoughGas: true,
    });

    const tooMuch = await server.call(
      "GET",
      `/v2/request/${requestId}/pay?wallet=${payer}&feePercentage=2&feeAddress=${feeAddress}`,
    );
    expect(tooMuch.body.metadata).toEqual({
      stepsRequired: 2,
      needsApproval: true,
      approvalTransactionIndex: 0,
      paymentTransactionIndex: 1,
      hasEnoughBalance: false,
      hasEnoughGas: false,
    });
  });

  it("reads an unknown wallet as empty: approval needed, no balance, no gas", async () => {
    const { requestId } = await newRequest();
    const answer = await server.call(
      "GET",
      `/v2/request/${requestId}/pay?wallet=0x000000000000000000000000000000000000dEaD`,
    );
    expect(answer.body.metadata).toMatchObject({
      needsApproval: true,
      hasEnoughBalance: false,
      hasEnoughGas: false,
    });
  });

  it("pays an `amount` that differs from the request's, exactly in base units", async () => {
    const { requestId } = await newRequest();
    const answer = await server.call("GET", `/v2/request/${requestId}/pay?amount=10.000001`);
    expect(decodeFunctionData({ abi, data: answer.body.transactions[1].data }).args[2]).toBe(10_000_001n);
  });

  it("refuses amounts with more decimals than the token, too large for a uint256, and zero", async () => {
    const { requestId } = await newRequest();
    const precise = await server.call("GET", `/v2/request/${requestId}/pay?amount=1.0000001`);
    expect(problemErrors(precise, "/problems/validation-failed", 400)).toEqual([
      { path: "/query/amount", message: 'must have at most 6 decimals for USDC-base, got "1.0000001"' },
    ]);
    const huge = "9".repeat(78);
    const tooLarge = await server.call("GET", `/v2/request/${requestId}/pay?amount=${huge}`);
    expect(problemErrors(tooLarge, "/problems/validation-failed", 400)).toEqual([
      { path: "/query/amount", message: `is too large to pay on chain for USDC-base, got "${huge}"` },
    ]);
    const zero = await server.call("GET", `/v2/request/${requestId}/pay?amount=0`);
    expect(problemErrors(zero, "/problems/validation-failed", 400)).toEqual([
      { path: "/query/amount", message: 'must be greater than 0, got "0"' },
    ]);
  });

  it("takes the fee of the calling client ID unless the query names one", async () => {
    const { requestId } = await newRequest(usdcOnBase("200"));
    const byClient = await server.call("GET", `/v2/request/${requestId}/pay`, { auth: "clientId" });
    expect(decodeFunctionData({ abi, data: byClient.body.transactions[1].data }).args.slice(4)).toEqual([
      3_000_000n,
      clientFeeAddress,
    ]);
    const byQuery = await server.call(
      "GET",
      `/v2/request/${requestId}/pay?feePercentage=0&feeAddress=${feeAddress}`,
      {
        auth: "clientId",
      },
    );
    expect(decodeFunctionData({ abi, data: byQuery.body.transactions[1].data }).args.slice(4)).toEqual([
      0n,
      feeAddress,
    ]);
    const byKey = await server.call("GET", `/v2/request/${requestId}/pay`);
    expect(decodeFunctionData({ abi, data: byKey.body.transactions[1].data }).args.slice(4)).toEqual([
      0n,
      zeroAddress,
    ]);
  });

  it("requires feePercentage and feeAddress together", async () => {
    const { requestId } = await newRequest();
    const answer = await server.call("GET", `/v2/request/${requestId}/pay?feePercentage=1`);
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      { path: "/query/feeAddress", message: "is required together with feePercentage" },
    ]);
  });

  it("refuses a fee above 0 to the zero address, which would burn it or revert, as the batch does", async () => {
    const { requestId } = await newRequest();
    const answer = await server.call(
      "GET",
      `/v2/request/${requestId}/pay?feePercentage=1&feeAddress=${zeroAddress}`,
    );
    expect(problemErrors(answer, "/problems/validation-failed", 400)).toEqual([
      {
        path: "/query/feeAddress",
        message:
          "must not be the zero address when feePercentage is above 0 (1): the fee would be burnt or the payment would revert",
      },
    ]);
  });

  it("reads a 0 % fee to the zero address as no fee", async () => {
    const { requestId } = await newRequest();
    const withZero = await server.call(
      "GET",
      `/v2/request/${requestId}/pay?feePercentage=0&feeAddress=${zeroAddress}`,
    );
    const without = await server.call("GET", `/v2/request/${requestId}/pay`);
    expect(withZero.status).toBe(200);
    expect(withZero.body).toEqual(without.body);
  });

  it("answers 404 for an unknown request", async () => {
    const answer = await server.call("GET", `/v2/request/01${"0".repeat(64)}/pay`);
    problemErrors(answer, "/problems/not-found", 404);
  });
});

describe("getPayCalldata (GET /v2/request/{requestId}/pay), native", () => {
  it("pays through the EthereumFeeProxy with amount plus fee as an ethers BigNumber", async () => {
    const { requestId, paymentReference } = await newRequest({
      payee,
      amount: "0.001",
      invoiceCurrency: "ETH-base-base",
      paymentCurrency: "ETH-base-base",
    });
    const answer = await server.call(
      "GET",
      `/v2/request/${requestId}/pay?feePercentage=10&feeAddress=${feeAddress}`,
    );
    expect(answer.body.transactions).toHaveLength(1);
    const [payment] = answer.body.transactions;
    expect(payment.to).toBe(base.ethereumFeeProxy);
    expect(payment.value).toEqual({ type: "BigNumber", hex: "0x03e871b540c000" });
    expect(BigInt(payment.value.hex)).toBe(1_100_000_000_000_000n);
    expect(payment.data.slice(0, 10)).toBe("0xb868980b");
    expect(decodeFunctionData({ abi, data: payment.data }).args).toEqual([
      payee,
      paymentReference,
      100_000_000_000_000n,
      feeAddress,
    ]);
    expect(answer.body.metadata).toEqual({
      stepsRequired: 1,
      needsApproval: false,
      approvalTransactionIndex: null,
      paymentTransactionIndex: 0,
      hasEnoughBalance: true,
      hasEnoughGas: true,
    });
    expect(ethBase.decimals).toBe(18);
  });

  it("counts gas on top of the amount for a native payment", async () => {
    const { requestId } = await newRequest({
      payee,
      amount: "1",
      invoiceCurrency: "ETH-base-base",
      paymentCurrency: "ETH-base-base",
    });
    const wallet = "0x00000000000000000000000000000000000b0b01";
    await setWallet({ address: wallet, balances: [{ currency: "ETH-base-base", amount: "1.0001" }] });
    const short = await server.call("GET", `/v2/request/${requestId}/pay?wallet=${wallet}`);
    expect(short.body.metadata).toMatchObject({ hasEnoughBalance: true, hasEnoughGas: false });
    await setWallet({ address: wallet, balances: [{ currency: "ETH-base-base", amount: "1.0002" }] });
    const enough = await server.call("GET", `/v2/request/${requestId}/pay?wallet=${wallet}`);
    expect(enough.body.metadata).toMatchObject({ hasEnoughBalance: true, hasEnoughGas: true });
  });
});

describe("contract override", () => {
  it("pays through the contracts given to createServer instead of the official ones", async () => {
    const contracts = {
      erc20FeeProxy: "0x1000000000000000000000000000000000000001",
      ethereumFeeProxy: "0x2000000000000000000000000000000000000002",
      batchConversionPayments: "0x3000000000000000000000000000000000000003",
    } as const;
    const local = await startTestServer({ contracts: { base: contracts } });
    try {
      const { requestIds } = await createSecurePayment(local);
      await local.call("POST", "/sandbox/wallets", {
        body: {
          address: payer,
          allowances: [{ currency: "USDC-base", spender: contracts.erc20FeeProxy, amount: "1000" }],
        },
      });
      const withoutWallet = await local.call("GET", `/v2/request/${requestIds[0]}/pay`);
      expect(decodeFunctionData({ abi, data: withoutWallet.body.transactions[0].data }).args[0]).toBe(
        contracts.erc20FeeProxy,
      );
      expect(withoutWallet.body.transactions[1].to).toBe(contracts.erc20FeeProxy);
      const withWallet = await local.call("GET", `/v2/request/${requestIds[0]}/pay?wallet=${payer}`);
      expect(withWallet.body.metadata.needsApproval).toBe(false);
    } finally {
      await local.close();
    }
  });
});
