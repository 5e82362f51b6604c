import { getAddress, type Hex, keccak256 } from "viem";
import { describe, expect, it } from "vitest";
import { erc20ProxyEvents, ethereumProxyEvents } from "../../chain/support/proxy-events.ts";
import { feeAddress, payee, problemErrors } from "../helpers.ts";
import { sendServerTransactions } from "./support/send-server-transactions.ts";
import { useSepoliaServer } from "./support/sepolia-server.ts";

// The server runs with its default configuration: the EVM holds the contracts and FAU at the
// addresses of its tables, so what it answers is sent unchanged.
const sepolia = useSepoliaServer({ mirrorBalances: true });

const payeeAddress = getAddress(payee);
const feeRecipient = getAddress(feeAddress);

/** Creates a one-request secure payment invoiced in its own payment currency; reads its stored reference. */
async function createSecurePayment(paymentCurrency: string, amount: string) {
  const created = await sepolia.server.call("POST", "/v2/secure-payments", {
    body: { requests: [{ payee, amount, invoiceCurrency: paymentCurrency, paymentCurrency }] },
  });
  expect(created.status).toBe(201);
  const token = created.body.token as string;
  const requestId = created.body.requestIds[0] as string;
  const stored = await sepolia.server.call("GET", `/sandbox/requests/${requestId}`);
  expect(stored.status).toBe(200);
  expect(stored.body).toMatchObject({ network: "sepolia", payee, paymentCurrency, expectedAmount: amount });
  expect((await sepolia.server.call("GET", `/v2/secure-payments/${token}`)).status).toBe(200);
  return { token, requestId, paymentReference: stored.body.paymentReference as Hex };
}

/** The pay calldata for the payer's wallet, with a 2.5 % fee. */
async function getPayCalldata(requestId: string) {
  const query = new URLSearchParams({
    wallet: sepolia.deployment.payer.address,
    feePercentage: "2.5",
    feeAddress,
  });
  const answer = await sepolia.server.call("GET", `/v2/request/${requestId}/pay?${query}`);
  expect(answer.status).toBe(200);
  return answer.body;
}

/** Records the on-chain payment in the sandbox; the link then answers 409. */
async function recordPaid(link: { token: string; requestId: string }, txHash: Hex, amount: string) {
  const paid = await sepolia.server.call("POST", `/sandbox/requests/${link.requestId}/payments`, {
    body: { outcome: "paid", txHash },
  });
  expect(paid.status).toBe(201);
  expect(paid.body).toMatchObject({
    status: "paid",
    amountPaid: amount,
    payments: [{ outcome: "paid", amount, txHash }],
    securePayment: { token: link.token, status: "completed" },
  });
  const check = await sepolia.server.call("GET", `/v2/secure-payments/${link.token}`);
  problemErrors(check, "/problems/secure-payment-completed", 409);
}

describe("a secure payment's pay calldata, executed in an EVM", () => {
  it("ERC-20 (12.345678 FAU + 2.5 %): approval then proxy call move the exact amounts under the stored reference", async () => {
    const { chain, payer, contracts, fau, fauBalanceOf, fauAllowance } = sepolia.deployment;
    const link = await createSecurePayment("FAU-sepolia", "12.345678");
    const pay = await getPayCalldata(link.requestId);
    expect(pay.metadata).toEqual({
      stepsRequired: 2,
      needsApproval: true,
      approvalTransactionIndex: 0,
      paymentTransactionIndex: 1,
      hasEnoughBalance: true,
      hasEnoughGas: true,
    });
    expect(pay.transactions.map((tx: { to: string; value: unknown }) => [tx.to, tx.value])).toEqual([
      [fau.address, { type: "BigNumber", hex: "0x00" }],
      [contracts.erc20FeeProxy, { type: "BigNumber", hex: "0x00" }],
    ]);
    const payerFau = await fauBalanceOf(payer.address);
    const payerWei = await chain.balanceOf(payer.address);

    const [approval, payment] = await sendServerTransactions(chain, payer, pay.transactions);

    const amount = 12_345_678_000_000_000_000n;
    const fee = 308_641_950_000_000_000n;
    expect(erc20ProxyEvents(payment?.logs ?? [], contracts.erc20FeeProxy)).toEqual([
      {
        tokenAddress: fau.address,
        to: payeeAddress,
        amount,
        paymentReference: keccak256(link.paymentReference),
        feeAmount: fee,
        feeAddress: feeRecipient,
        referenceTopic: keccak256(link.paymentReference),
      },
    ]);
    expect(await fauBalanceOf(payeeAddress)).toBe(amount);
    expect(await fauBalanceOf(feeRecipient)).toBe(fee);
    expect(await fauBalanceOf(payer.address)).toBe(payerFau - amount - fee);
    expect(await fauBalanceOf(contracts.erc20FeeProxy)).toBe(0n);
    // The approval covered amount + fee exactly: nothing is left approved.
    expect(await fauAllowance(payer.address, contracts.erc20FeeProxy)).toBe(0n);
    const gas = (approval?.gasCost ?? 0n) + (payment?.gasCost ?? 0n);
    expect(await chain.balanceOf(payer.address)).toBe(payerWei - gas);

    await recordPaid(link, payment?.hash as Hex, "12.345678");
  });

  it("native (0.015 ETH + 2.5 %): one proxy call whose value pays amount and fee exactly", async () => {
    const { chain, payer, contracts } = sepolia.deployment;
    const link = await createSecurePayment("ETH-sepolia-sepolia", "0.015");
    const pay = await getPayCalldata(link.requestId);
    expect(pay.metadata).toEqual({
      stepsRequired: 1,
      needsApproval: false,
      approvalTransactionIndex: null,
      paymentTransactionIndex: 0,
      hasEnoughBalance: true,
      hasEnoughGas: true,
    });
    expect(pay.transactions).toHaveLength(1);
    expect(pay.transactions[0].to).toBe(contracts.ethereumFeeProxy);
    expect(pay.transactions[0].value).toEqual({ type: "BigNumber", hex: "0x369f7b256bf000" });
    const payerWei = await chain.balanceOf(payer.address);

    const [payment] = await sendServerTransactions(chain, payer, pay.transactions);

    const amount = 15_000_000_000_000_000n;
    const fee = 375_000_000_000_000n;
    expect(ethereumProxyEvents(payment?.logs ?? [], contracts.ethereumFeeProxy)).toEqual([
      {
        to: payeeAddress,
        amount,
        paymentReference: keccak256(link.paymentReference),
        feeAmount: fee,
        feeAddress: feeRecipient,
        referenceTopic: keccak256(link.paymentReference),
      },
    ]);
    expect(await chain.balanceOf(payeeAddress)).toBe(amount);
    expect(await chain.balanceOf(feeRecipient)).toBe(fee);
    expect(await chain.balanceOf(payer.address)).toBe(payerWei - amount - fee - (payment?.gasCost ?? 0n));
    expect(await chain.balanceOf(contracts.ethereumFeeProxy)).toBe(0n);

    await recordPaid(link, payment?.hash as Hex, "0.015");
  });
});

describe("the EVM enforces what the calldata promises", () => {
  it("the proxy call sent without its approval reverts and moves nothing", async () => {
    const { chain, payer, contracts, fauBalanceOf } = sepolia.deployment;
    const link = await createSecurePayment("FAU-sepolia", "12.345678");
    const pay = await getPayCalldata(link.requestId);
    const payerFau = await fauBalanceOf(payer.address);

    // The token's transferFrom fails for lack of allowance; the proxy reverts without a reason.
    await expect(sendServerTransactions(chain, payer, pay.transactions.slice(1))).rejects.toThrow(
      new Error(`transaction to ${contracts.erc20FeeProxy} reverted (revert): 0x`),
    );
    expect(await fauBalanceOf(payer.address)).toBe(payerFau);
    expect(await fauBalanceOf(payeeAddress)).toBe(0n);
  });
});
