import { getAddress, keccak256 } from "viem";
import { describe, expect, it } from "vitest";
import {
  buildPaymentTransactions,
  computeFeeAmount,
  computePaymentReference,
  findToken,
  parseDecimalAmount,
  type TokenRecord,
} from "../../src/chain/index.ts";
import { deployPaymentContracts } from "./support/payment-deployment.ts";
import { erc20ProxyEvents, ethereumProxyEvents } from "./support/proxy-events.ts";
import type { TestReceipt } from "./support/test-chain.ts";

const payee = getAddress("0x6923831acf5c327260d7ac7c9dff5b1c3cb3c7d7");
const feeAddress = getAddress("0xb07d2398d2004378cad234da0ef14f1c94a530e4");
const requestId = `01${"5e".repeat(32)}`;

describe("a single payment executed in an EVM at Sepolia's official proxy addresses", () => {
  it("ERC-20: the approval and the transfer move amount and fee, and log the reference", async () => {
    const { chain, payer, contracts, tokens, erc20BalanceOf, erc20Allowance } =
      await deployPaymentContracts();
    const [token] = tokens;
    const amount = parseDecimalAmount("125.5", token.decimals);
    const feeAmount = computeFeeAmount(amount, "2.5");
    const paymentReference = computePaymentReference({
      requestId,
      salt: "0f1e2d3c4b5a6978",
      paymentAddress: payee,
    });
    const payerBefore = await erc20BalanceOf(token, payer.address);

    const built = buildPaymentTransactions({
      network: "sepolia",
      token,
      payee,
      amount,
      paymentReference,
      feeAmount,
      feeAddress,
    });
    expect(built.approvalTransactionIndex).toBe(0);
    const receipts: TestReceipt[] = [];
    for (const tx of built.transactions) receipts.push(await chain.send(payer, tx));

    expect(erc20ProxyEvents(receipts[1]?.logs ?? [], contracts.erc20FeeProxy)).toEqual([
      {
        tokenAddress: getAddress(token.address),
        to: payee,
        amount: 125_500_000_000_000_000_000n,
        paymentReference: keccak256(paymentReference),
        feeAmount: 3_137_500_000_000_000_000n,
        feeAddress,
        referenceTopic: keccak256(paymentReference),
      },
    ]);
    expect(await erc20BalanceOf(token, payee)).toBe(amount);
    expect(await erc20BalanceOf(token, feeAddress)).toBe(feeAmount);
    expect(await erc20BalanceOf(token, payer.address)).toBe(payerBefore - amount - feeAmount);
    expect(await erc20Allowance(token, payer.address, contracts.erc20FeeProxy)).toBe(0n);
  });

  it("native: the value reaches payee and fee address, and the proxy logs the reference", async () => {
    const { chain, payer, contracts } = await deployPaymentContracts();
    const token = findToken("ETH-sepolia-sepolia") as TokenRecord;
    const amount = parseDecimalAmount("0.25", token.decimals);
    const feeAmount = computeFeeAmount(amount, "1.5");
    const paymentReference = computePaymentReference({
      requestId,
      salt: "8899aabbccddeeff",
      paymentAddress: payee,
    });
    const payerBefore = await chain.balanceOf(payer.address);

    const built = buildPaymentTransactions({
      network: "sepolia",
      token,
      payee,
      amount,
      paymentReference,
      feeAmount,
      feeAddress,
    });
    expect(built.transactions).toHaveLength(1);
    const [payment] = built.transactions;
    if (!payment) throw new Error("no payment transaction");
    expect(payment.value).toBe(253_750_000_000_000_000n);
    const receipt = await chain.send(payer, payment);

    expect(ethereumProxyEvents(receipt.logs, contracts.ethereumFeeProxy)).toEqual([
      {
        to: payee,
        amount: 250_000_000_000_000_000n,
        paymentReference: keccak256(paymentReference),
        feeAmount: 3_750_000_000_000_000n,
        feeAddress,
        referenceTopic: keccak256(paymentReference),
      },
    ]);
    expect(await chain.balanceOf(payee)).toBe(amount);
    expect(await chain.balanceOf(feeAddress)).toBe(feeAmount);
    expect(await chain.balanceOf(payer.address)).toBe(payerBefore - amount - feeAmount - receipt.gasCost);
    expect(await chain.balanceOf(contracts.ethereumFeeProxy)).toBe(0n);
  });
});
