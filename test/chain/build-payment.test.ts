import { decodeFunctionData, zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import {
  buildAllowanceReset,
  buildPaymentTransactions,
  erc20FeeProxyAbi,
  ethereumFeeProxyAbi,
  findToken,
  getOfficialContracts,
  type PaymentInput,
  type TokenRecord,
} from "../../src/chain/index.ts";
import { bytesTail, word } from "./support/abi-words.ts";
import { rejection } from "./support/chain-input-rejection.ts";

const usdcBase = findToken("USDC-base") as TokenRecord;
const ethBase = findToken("ETH-base-base") as TokenRecord;
const base = getOfficialContracts("base");
const payee = "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7";
const feeAddress = "0xb07D2398d2004378cad234DA0EF14f1c94A530e4";
const paymentReference = "0xa0098add01acc736";

const erc20Payment: PaymentInput = {
  network: "base",
  token: usdcBase,
  payee,
  amount: 125_500_000n,
  paymentReference,
  feeAmount: 3_137_500n,
  feeAddress,
};

describe("buildPaymentTransactions for an ERC-20 token", () => {
  it("approves the ERC20FeeProxy for amount + fee, then pays through it", () => {
    const built = buildPaymentTransactions(erc20Payment);
    expect(built.needsApproval).toBe(true);
    expect(built.approvalTransactionIndex).toBe(0);
    expect(built.transactions).toEqual([
      {
        to: usdcBase.address,
        data: `0x095ea7b3${word(base?.erc20FeeProxy as `0x${string}`)}${word(128_637_500n)}`,
        value: 0n,
      },
      {
        to: "0x1892196E80C4c17ea5100Da765Ab48c1fE2Fb814",
        data:
          "0xc219a14d" +
          word(usdcBase.address) +
          word(payee) +
          word(125_500_000n) +
          word(0xc0) +
          word(3_137_500n) +
          word(feeAddress) +
          bytesTail(paymentReference),
        value: 0n,
      },
    ]);
  });

  it("decodes back to the arguments it was given", () => {
    const payment = buildPaymentTransactions(erc20Payment).transactions[1];
    const decoded = decodeFunctionData({ abi: erc20FeeProxyAbi, data: payment?.data ?? "0x" });
    expect(decoded.functionName).toBe("transferFromWithReferenceAndFee");
    expect(decoded.args).toEqual([
      usdcBase.address,
      payee,
      125_500_000n,
      paymentReference,
      3_137_500n,
      feeAddress,
    ]);
  });

  it("skips the approval when the known allowance covers amount + fee, and asks for one when it does not", () => {
    const covered = buildPaymentTransactions({ ...erc20Payment, currentAllowance: 128_637_500n });
    expect(covered.needsApproval).toBe(false);
    expect(covered.approvalTransactionIndex).toBeNull();
    expect(covered.transactions.map((tx) => tx.data.slice(0, 10))).toEqual(["0xc219a14d"]);
    const short = buildPaymentTransactions({ ...erc20Payment, currentAllowance: 128_637_499n });
    expect(short.needsApproval).toBe(true);
    expect(short.transactions.map((tx) => tx.data.slice(0, 10))).toEqual(["0x095ea7b3", "0xc219a14d"]);
  });

  it("encodes the zero address as fee address when there is no fee", () => {
    const built = buildPaymentTransactions({ ...erc20Payment, feeAmount: 0n, feeAddress: undefined });
    const decoded = decodeFunctionData({ abi: erc20FeeProxyAbi, data: built.transactions[1]?.data ?? "0x" });
    expect(decoded.args?.slice(4)).toEqual([0n, zeroAddress]);
    expect(built.transactions[0]?.data).toBe(
      `0x095ea7b3${word(base?.erc20FeeProxy as `0x${string}`)}${word(125_500_000n)}`,
    );
  });

  it("pays through overriding contracts when given", () => {
    const contracts = {
      erc20FeeProxy: "0x1111111111111111111111111111111111111111",
      ethereumFeeProxy: "0x2222222222222222222222222222222222222222",
      batchConversionPayments: "0x3333333333333333333333333333333333333333",
    } as const;
    const built = buildPaymentTransactions({ ...erc20Payment, contracts });
    expect(built.transactions.map((tx) => tx.to)).toEqual([usdcBase.address, contracts.erc20FeeProxy]);
    expect(built.transactions[0]?.data).toContain(word(contracts.erc20FeeProxy));
  });
});

describe("buildPaymentTransactions for the native coin", () => {
  it("sends amount + fee as value to the EthereumFeeProxy, without approval", () => {
    const built = buildPaymentTransactions({
      ...erc20Payment,
      token: ethBase,
      amount: 10n ** 16n,
      feeAmount: 25n * 10n ** 13n,
      paymentReference: "0x0123456789ABCDEF",
    });
    expect(built).toEqual({
      needsApproval: false,
      approvalTransactionIndex: null,
      transactions: [
        {
          to: "0xd9C3889eB8DA6ce449bfFE3cd194d08A436e96f2",
          data:
            "0xb868980b" +
            word(payee) +
            word(0x80) +
            word(25n * 10n ** 13n) +
            word(feeAddress) +
            bytesTail("0x0123456789abcdef"),
          value: 10n ** 16n + 25n * 10n ** 13n,
        },
      ],
    });
    const decoded = decodeFunctionData({
      abi: ethereumFeeProxyAbi,
      data: built.transactions[0]?.data ?? "0x",
    });
    expect(decoded.args).toEqual([payee, "0x0123456789abcdef", 25n * 10n ** 13n, feeAddress]);
  });
});

describe("buildPaymentTransactions rejects", () => {
  it("a fee without a fee address, which the proxy would silently drop", () => {
    expect(rejection(() => buildPaymentTransactions({ ...erc20Payment, feeAddress: undefined }))).toEqual({
      field: "feeAddress",
      code: "missing_fee_address",
      message: "feeAddress is required when the fee is above 0.",
    });
  });

  it("a token from another network", () => {
    const usdcMainnet = findToken("USDC-mainnet") as TokenRecord;
    expect(rejection(() => buildPaymentTransactions({ ...erc20Payment, token: usdcMainnet }))).toEqual({
      field: "token",
      code: "network_mismatch",
      message: "token USDC-mainnet is on mainnet, not on base.",
    });
  });

  it("bad amounts, addresses and references, naming the field", () => {
    expect(rejection(() => buildPaymentTransactions({ ...erc20Payment, amount: 0n }))).toEqual({
      field: "amount",
      code: "out_of_range",
      message: "amount must be greater than 0.",
    });
    expect(rejection(() => buildPaymentTransactions({ ...erc20Payment, feeAmount: -1n }))).toEqual({
      field: "feeAmount",
      code: "out_of_range",
      message: "feeAmount must not be negative.",
    });
    expect(rejection(() => buildPaymentTransactions({ ...erc20Payment, payee: "0x1234" }))).toEqual({
      field: "payee",
      code: "invalid_address",
      message: "payee must be 0x and 40 hex digits.",
    });
    expect(
      rejection(() =>
        buildPaymentTransactions({
          ...erc20Payment,
          feeAddress: "0xzz23831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7",
        }),
      ),
    ).toEqual({
      field: "feeAddress",
      code: "invalid_address",
      message: "feeAddress must be 0x and 40 hex digits.",
    });
    expect(
      rejection(() => buildPaymentTransactions({ ...erc20Payment, paymentReference: "0xa0098add01acc7" })),
    ).toEqual({
      field: "paymentReference",
      code: "invalid_format",
      message: "paymentReference must be 0x and 16 hex digits.",
    });
  });
});

describe("buildAllowanceReset", () => {
  it("approves the spender for 0", () => {
    const usdt = findToken("USDT-mainnet") as TokenRecord;
    const spender = getOfficialContracts("mainnet")?.erc20FeeProxy as `0x${string}`;
    expect(buildAllowanceReset({ token: usdt.address, spender })).toEqual({
      to: "0xdAC17F958D2ee523a2206206994597C13D831ec7",
      data: `0x095ea7b3${word(spender)}${word(0n)}`,
      value: 0n,
    });
  });
});
