import { getAddress, keccak256 } from "viem";
import { describe, expect, it } from "vitest";
import {
  type BatchPaymentItem,
  buildApproval,
  buildBatchPaymentTransactions,
  computeFeeAmount,
  findToken,
  parseDecimalAmount,
  type TokenRecord,
} from "../../src/chain/index.ts";
import { deployPaymentContracts } from "./support/payment-deployment.ts";
import { erc20ProxyEvents, ethereumProxyEvents } from "./support/proxy-events.ts";
import type { TestReceipt } from "./support/test-chain.ts";

const alice = getAddress("0x6923831acf5c327260d7ac7c9dff5b1c3cb3c7d7");
const bob = getAddress("0x00000000000000000000000000000000000b0b0b");
const carol = getAddress("0x00000000000000000000000000000000000ca201");
const feeAddress = getAddress("0xb07d2398d2004378cad234da0ef14f1c94a530e4");
const eth = findToken("ETH-sepolia-sepolia") as TokenRecord;

function payment(token: TokenRecord, payee: `0x${string}`, amount: string, fee: string, ref: `0x${string}`) {
  const units = parseDecimalAmount(amount, token.decimals);
  return { token, payee, amount: units, feeAmount: computeFeeAmount(units, fee), paymentReference: ref };
}

describe("a batch executed in an EVM through BatchConversionPayments", () => {
  it("mixed ERC-20 + native with fees and a 0.3 % batch fee: every payment, fee and batch fee lands", async () => {
    const { chain, payer, contracts, tokens, erc20BalanceOf, erc20Allowance, setBatchFee } =
      await deployPaymentContracts();
    await setBatchFee(30);
    const [token] = tokens;
    const payments: BatchPaymentItem[] = [
      payment(token, alice, "100", "2.5", "0x1111111111111111"),
      payment(eth, carol, "0.5", "1", "0x2222222222222222"),
      payment(token, bob, "40.25", "0", "0x3333333333333333"),
    ];
    const payerTokens = await erc20BalanceOf(token, payer.address);
    const payerWei = await chain.balanceOf(payer.address);

    const built = buildBatchPaymentTransactions({
      network: "sepolia",
      payments,
      feeAddress,
      batchFeeBasisPoints: 30,
      contracts,
    });
    expect(built.approvals).toHaveLength(1);
    const receipts: TestReceipt[] = [];
    for (const tx of [...built.approvals, built.batchPayment]) receipts.push(await chain.send(payer, tx));
    const batchLogs = receipts.at(-1)?.logs ?? [];

    expect(erc20ProxyEvents(batchLogs, contracts.erc20FeeProxy)).toEqual([
      {
        tokenAddress: getAddress(token.address),
        to: alice,
        amount: 100n * 10n ** 18n,
        paymentReference: keccak256("0x1111111111111111"),
        feeAmount: 25n * 10n ** 17n,
        feeAddress,
        referenceTopic: keccak256("0x1111111111111111"),
      },
      {
        tokenAddress: getAddress(token.address),
        to: bob,
        amount: 4025n * 10n ** 16n,
        paymentReference: keccak256("0x3333333333333333"),
        feeAmount: 0n,
        feeAddress,
        referenceTopic: keccak256("0x3333333333333333"),
      },
    ]);
    expect(ethereumProxyEvents(batchLogs, contracts.ethereumFeeProxy)).toEqual([
      {
        to: carol,
        amount: 5n * 10n ** 17n,
        paymentReference: keccak256("0x2222222222222222"),
        feeAmount: 5n * 10n ** 15n,
        feeAddress,
        referenceTopic: keccak256("0x2222222222222222"),
      },
    ]);

    // Token: 140.25 paid, 2.5 fee, 0.3 % of 140.25 = 0.42075 batch fee.
    expect(await erc20BalanceOf(token, alice)).toBe(100n * 10n ** 18n);
    expect(await erc20BalanceOf(token, bob)).toBe(4025n * 10n ** 16n);
    expect(await erc20BalanceOf(token, feeAddress)).toBe(2_920_750_000_000_000_000n);
    expect(await erc20BalanceOf(token, payer.address)).toBe(payerTokens - 143_170_750_000_000_000_000n);
    expect(await erc20BalanceOf(token, contracts.batchConversionPayments)).toBe(0n);
    expect(await erc20Allowance(token, payer.address, contracts.batchConversionPayments)).toBe(0n);
    // Native: 0.5 paid, 0.005 fee, 0.3 % of 0.5 = 0.0015 batch fee, nothing left in the contract.
    expect(built.batchPayment.value).toBe(506_500_000_000_000_000n);
    expect(await chain.balanceOf(carol)).toBe(5n * 10n ** 17n);
    expect(await chain.balanceOf(feeAddress)).toBe(6_500_000_000_000_000n);
    const gas = receipts.reduce((sum, receipt) => sum + receipt.gasCost, 0n);
    expect(await chain.balanceOf(payer.address)).toBe(payerWei - 506_500_000_000_000_000n - gas);
    expect(await chain.balanceOf(contracts.batchConversionPayments)).toBe(0n);
  });

  it("two tokens (multi-token group), one already approved: only the other is approved, both are paid", async () => {
    const { chain, payer, contracts, tokens, erc20BalanceOf } = await deployPaymentContracts();
    const [first, second] = tokens;
    const payments = [
      payment(first, alice, "12", "10", "0xaaaaaaaaaaaaaaaa"),
      payment(second, bob, "3.5", "0", "0xbbbbbbbbbbbbbbbb"),
      payment(eth, carol, "0.01", "0", "0xcccccccccccccccc"),
    ];
    const preApproved = 35n * 10n ** 17n;
    await chain.send(
      payer,
      buildApproval({
        token: second.address,
        spender: contracts.batchConversionPayments,
        amount: preApproved,
      }),
    );

    const built = buildBatchPaymentTransactions({
      network: "sepolia",
      payments,
      feeAddress,
      currentAllowances: { [second.address]: preApproved },
      contracts,
    });
    expect(built.approvals.map((tx) => tx.to)).toEqual([getAddress(first.address)]);
    const receipts: TestReceipt[] = [];
    for (const tx of [...built.approvals, built.batchPayment]) receipts.push(await chain.send(payer, tx));

    const events = erc20ProxyEvents(receipts.at(-1)?.logs ?? [], contracts.erc20FeeProxy);
    expect(events.map((event) => [event.tokenAddress, event.to, event.amount, event.feeAmount])).toEqual([
      [getAddress(first.address), alice, 12n * 10n ** 18n, 12n * 10n ** 17n],
      [getAddress(second.address), bob, 35n * 10n ** 17n, 0n],
    ]);
    expect(await erc20BalanceOf(first, alice)).toBe(12n * 10n ** 18n);
    expect(await erc20BalanceOf(first, feeAddress)).toBe(12n * 10n ** 17n);
    expect(await erc20BalanceOf(second, bob)).toBe(35n * 10n ** 17n);
    expect(await chain.balanceOf(carol)).toBe(10n ** 16n);
  });

  it("reverts when the builder is not told about a batch fee the contract charges", async () => {
    const { chain, payer, contracts, tokens, erc20BalanceOf, setBatchFee } = await deployPaymentContracts();
    await setBatchFee(30);
    const [token] = tokens;
    const built = buildBatchPaymentTransactions({
      network: "sepolia",
      payments: [payment(token, alice, "10", "0", "0x4444444444444444")],
      feeAddress,
      contracts,
    });
    for (const approval of built.approvals) await chain.send(payer, approval);
    await expect(chain.send(payer, built.batchPayment)).rejects.toThrow(/reverted/);
    expect(await erc20BalanceOf(token, alice)).toBe(0n);
  });
});
