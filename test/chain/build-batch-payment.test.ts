import { decodeFunctionData, zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import {
  type BatchPaymentInput,
  type BatchPaymentItem,
  batchConversionPaymentsAbi,
  buildBatchPaymentTransactions,
  findToken,
  type TokenRecord,
} from "../../src/chain/index.ts";
import { word } from "./support/abi-words.ts";
import { rejection } from "./support/chain-input-rejection.ts";

const usdc = findToken("USDC-base") as TokenRecord;
const dai = findToken("DAI-base") as TokenRecord;
const eth = findToken("ETH-base-base") as TokenRecord;
const batchContract = "0x1aF3f22685AcdDc788B3730ed415912d8f654420";
const feeAddress = "0xb07D2398d2004378cad234DA0EF14f1c94A530e4";
const alice = "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7";
const bob = "0x1111111111111111111111111111111111111111";

function item(
  token: TokenRecord,
  payee: `0x${string}`,
  amount: bigint,
  feeAmount: bigint,
  ref: string,
): BatchPaymentItem {
  return { token, payee, amount, feeAmount, paymentReference: `0x${ref.repeat(16).slice(0, 16)}` };
}

const mixed: BatchPaymentInput = {
  network: "base",
  feeAddress,
  payments: [
    item(usdc, alice, 100_000_000n, 2_500_000n, "a"),
    item(eth, bob, 10n ** 17n, 10n ** 15n, "b"),
    item(usdc, bob, 50_000_000n, 0n, "c"),
  ],
};

function decodeBatch(data: `0x${string}`) {
  const decoded = decodeFunctionData({ abi: batchConversionPaymentsAbi, data });
  expect(decoded.functionName).toBe("batchPayments");
  return decoded.args;
}

describe("buildBatchPaymentTransactions", () => {
  it("approves the batch contract per token and groups ERC-20 (id 1) and native (id 3) requests", () => {
    const built = buildBatchPaymentTransactions(mixed);
    expect(built.hasErc20).toBe(true);
    expect(built.hasNative).toBe(true);
    expect(built.approvals).toEqual([
      { to: usdc.address, data: `0x095ea7b3${word(batchContract)}${word(152_500_000n)}`, value: 0n },
    ]);
    expect(built.batchPayment.to).toBe(batchContract);
    expect(built.batchPayment.value).toBe(10n ** 17n + 10n ** 15n);
    expect(built.batchPayment.data.slice(0, 10)).toBe("0x92cddb91");
    expect(decodeBatch(built.batchPayment.data)).toEqual([
      [
        {
          paymentNetworkId: 1n,
          requestDetails: [
            {
              recipient: alice,
              requestAmount: 100_000_000n,
              path: [usdc.address],
              paymentReference: "0xaaaaaaaaaaaaaaaa",
              feeAmount: 2_500_000n,
              maxToSpend: 0n,
              maxRateTimespan: 0n,
            },
            {
              recipient: bob,
              requestAmount: 50_000_000n,
              path: [usdc.address],
              paymentReference: "0xcccccccccccccccc",
              feeAmount: 0n,
              maxToSpend: 0n,
              maxRateTimespan: 0n,
            },
          ],
        },
        {
          paymentNetworkId: 3n,
          requestDetails: [
            {
              recipient: bob,
              requestAmount: 10n ** 17n,
              path: [],
              paymentReference: "0xbbbbbbbbbbbbbbbb",
              feeAmount: 10n ** 15n,
              maxToSpend: 0n,
              maxRateTimespan: 0n,
            },
          ],
        },
      ],
      [],
      feeAddress,
    ]);
  });

  it("uses the multi-token group (id 2) and one approval per token when tokens differ", () => {
    const built = buildBatchPaymentTransactions({
      ...mixed,
      payments: [item(dai, alice, 5n * 10n ** 18n, 10n ** 17n, "d"), ...mixed.payments],
    });
    expect(built.approvals.map((tx) => [tx.to, tx.data])).toEqual([
      [dai.address, `0x095ea7b3${word(batchContract)}${word(51n * 10n ** 17n)}`],
      [usdc.address, `0x095ea7b3${word(batchContract)}${word(152_500_000n)}`],
    ]);
    const [metaDetails] = decodeBatch(built.batchPayment.data);
    expect(metaDetails.map((meta) => [meta.paymentNetworkId, meta.requestDetails.length])).toEqual([
      [2n, 3],
      [3n, 1],
    ]);
  });

  it("adds the contract's batch fee to each approval and to the native value, rounding down", () => {
    const built = buildBatchPaymentTransactions({ ...mixed, batchFeeBasisPoints: 30 });
    // USDC: 152.5 + 0.3 % of 150 = 0.45; ETH: 0.101 + 0.3 % of 0.1.
    expect(built.approvals[0]?.data).toBe(`0x095ea7b3${word(batchContract)}${word(152_950_000n)}`);
    expect(built.batchPayment.value).toBe(101_300_000_000_000_000n);
    const odd = buildBatchPaymentTransactions({
      ...mixed,
      batchFeeBasisPoints: 30,
      payments: [item(usdc, alice, 333n, 0n, "e"), item(eth, bob, 333n, 0n, "f")],
    });
    expect(odd.approvals[0]?.data).toBe(`0x095ea7b3${word(batchContract)}${word(333n)}`);
    expect(odd.batchPayment.value).toBe(333n);
  });

  it("skips approvals the known allowances already cover, matching token addresses in any case", () => {
    const lower = usdc.address.toLowerCase() as `0x${string}`;
    expect(
      buildBatchPaymentTransactions({ ...mixed, currentAllowances: { [lower]: 152_500_000n } }).approvals,
    ).toEqual([]);
    expect(
      buildBatchPaymentTransactions({ ...mixed, currentAllowances: { [usdc.address]: 152_499_999n } })
        .approvals,
    ).toHaveLength(1);
  });

  it("pays native-only batches without approvals, and lets them use the zero fee address when fee-free", () => {
    const built = buildBatchPaymentTransactions({
      network: "base",
      feeAddress: zeroAddress,
      payments: [item(eth, alice, 7n, 0n, "1"), item(eth, bob, 8n, 0n, "2")],
    });
    expect(built).toMatchObject({ approvals: [], hasErc20: false, hasNative: true });
    expect(built.batchPayment.value).toBe(15n);
    const [metaDetails, , fee] = decodeBatch(built.batchPayment.data);
    expect(metaDetails.map((meta) => meta.paymentNetworkId)).toEqual([3n]);
    expect(fee).toBe(zeroAddress);
  });

  it("encodes the same calldata for addresses in any letter case, a wrong checksum included", () => {
    const built = buildBatchPaymentTransactions(mixed);
    const recased = (address: string) => `0x${address.slice(2).toUpperCase()}` as `0x${string}`;
    const lowerCase = buildBatchPaymentTransactions({
      ...mixed,
      feeAddress: feeAddress.toLowerCase() as `0x${string}`,
      payments: mixed.payments.map((payment) => ({ ...payment, payee: recased(payment.payee) })),
    });
    expect(lowerCase).toEqual(built);
    expect(decodeBatch(lowerCase.batchPayment.data)[2]).toBe(feeAddress);
  });

  it("rejects what the contract would revert on or lose, naming the payment", () => {
    expect(rejection(() => buildBatchPaymentTransactions({ ...mixed, payments: [] }))).toEqual({
      field: "payments",
      code: "empty_batch",
      message: "payments must hold at least one payment.",
    });
    expect(rejection(() => buildBatchPaymentTransactions({ ...mixed, feeAddress: zeroAddress }))).toEqual({
      field: "feeAddress",
      code: "missing_fee_address",
      message: "feeAddress must not be the zero address for a batch with ERC-20 payments or fees.",
    });
    expect(rejection(() => buildBatchPaymentTransactions({ ...mixed, batchFeeBasisPoints: 201 }))).toEqual({
      field: "batchFeeBasisPoints",
      code: "out_of_range",
      message: "batchFeeBasisPoints must be an integer from 0 to 200, got 201.",
    });
    const usdcMainnet = findToken("USDC-mainnet") as TokenRecord;
    const wrongNetwork = [mixed.payments[0], item(usdcMainnet, bob, 1n, 0n, "9")] as BatchPaymentItem[];
    expect(rejection(() => buildBatchPaymentTransactions({ ...mixed, payments: wrongNetwork }))).toEqual({
      field: "payments[1].token",
      code: "network_mismatch",
      message: "payments[1].token USDC-mainnet is on mainnet, not on base.",
    });
    const badPayee = [{ ...item(usdc, alice, 1n, 0n, "9"), payee: "0xnope" as `0x${string}` }];
    expect(rejection(() => buildBatchPaymentTransactions({ ...mixed, payments: badPayee }))).toEqual({
      field: "payments[0].payee",
      code: "invalid_address",
      message: "payments[0].payee must be 0x and 40 hex digits.",
    });
    const zeroAmount = [item(usdc, alice, 0n, 0n, "9")];
    expect(rejection(() => buildBatchPaymentTransactions({ ...mixed, payments: zeroAmount }))).toEqual({
      field: "payments[0].amount",
      code: "out_of_range",
      message: "payments[0].amount must be greater than 0.",
    });
  });
});
