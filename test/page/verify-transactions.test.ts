import { encodeFunctionData, zeroAddress } from "viem";
import { describe, expect, it } from "vitest";
import {
  type BuiltTransaction,
  buildApproval,
  buildBatchPaymentTransactions,
  buildPaymentTransactions,
  erc20FeeProxyAbi,
  findToken,
  getOfficialContracts,
  type TokenRecord,
} from "../../src/chain/index.ts";
import {
  LinkDetailsError,
  readExpectedLink,
  type SecurePaymentDetails,
} from "../../src/page/expected-link.ts";
import { verifyTransactions } from "../../src/page/verify-transactions.ts";
import { toWireTransaction } from "../../src/server/domain/shared/transaction-wire.ts";
import { feeAddress, payee, payer } from "../server/helpers.ts";

const usdc = findToken("USDC-base") as TokenRecord;
const eth = findToken("ETH-base-base") as TokenRecord;
const contracts = getOfficialContracts("base") as NonNullable<ReturnType<typeof getOfficialContracts>>;
const otherPayee = "0xb07D2398d2004378cad234DA0EF14f1c94A530e4";
const attacker = "0x000000000000000000000000000000000000dEaD";
const reference = "0xa0098add01acc736";
const otherReference = "0x5d0c2f3e9a1b7c46";
const requestId = `01${"ab".repeat(32)}`;

const singleDetails = (overrides: Partial<SecurePaymentDetails> = {}): SecurePaymentDetails =>
  ({
    paymentType: "single",
    status: "pending",
    requestIds: [requestId],
    network: "base",
    payee,
    amount: "125",
    paymentCurrency: "USDC-base",
    isNativeCurrency: false,
    paymentReference: reference,
    feeAmount: "0",
    feeAddress: null,
    reference: null,
    redirectUrl: null,
    expiresAt: "2026-04-19T10:00:00.000Z",
    feePlan: null,
    ...overrides,
  }) as SecurePaymentDetails;

/** The wire form the server sends: `value` as the number 0 or an ethers BigNumber. */
const wire = (transaction: BuiltTransaction) =>
  toWireTransaction(transaction, transaction.value === 0n ? "number" : "bignumber");

const usdcPayment = (overrides: Partial<Parameters<typeof buildPaymentTransactions>[0]> = {}) =>
  buildPaymentTransactions({
    network: "base",
    token: usdc,
    payee,
    amount: 125_000_000n,
    paymentReference: reference,
    feeAmount: 0n,
    feeAddress: undefined,
    ...overrides,
  }).transactions.map(wire);

const check = (details: SecurePaymentDetails, transactions: unknown[]) =>
  verifyTransactions(readExpectedLink(details), transactions, payer);

describe("verifyTransactions for a one-request ERC-20 link", () => {
  it("passes the server's approval and payment, and describes both", () => {
    const result = check(singleDetails(), usdcPayment());
    expect(result.mismatches).toEqual([]);
    expect(result.steps.map((step) => [step.kind, step.label])).toEqual([
      ["approval", "Allow the ERC20FeeProxy contract to spend 125 USDC"],
      ["payment", `Pay 125 USDC to ${payee}`],
    ]);
  });

  it("passes a payment with the client ID's fee, approved for amount plus fee", () => {
    const transactions = usdcPayment({ feeAmount: 190_000n, feeAddress });
    const details = singleDetails({ feeAmount: "0.19", feeAddress });
    expect(check(details, transactions).mismatches).toEqual([]);
  });

  it("names a payment sent to an unofficial contract", () => {
    const [approval, payment] = usdcPayment();
    const result = check(singleDetails(), [approval, { ...payment, to: attacker }]);
    expect(result.mismatches).toEqual([
      {
        transaction: 2,
        field: "target",
        message: `Transaction 2 goes to ${attacker}, which is not the official ERC20FeeProxy on Base (${contracts.erc20FeeProxy}) nor the USDC token (${usdc.address}).`,
      },
      {
        transaction: null,
        field: "count",
        message: `No transaction pays through the official ERC20FeeProxy on Base (${contracts.erc20FeeProxy}).`,
      },
    ]);
  });

  it("names each field of calldata that pays someone else, another amount, reference or fee", () => {
    const tampered = usdcPayment({
      payee: attacker,
      amount: 125_000_001n,
      paymentReference: otherReference,
      feeAmount: 1_000_000n,
      feeAddress: attacker,
    });
    const result = check(singleDetails(), tampered);
    expect(
      result.mismatches.map((mismatch) => [mismatch.transaction, mismatch.field, mismatch.message]),
    ).toEqual([
      [1, "approvalAmount", "Transaction 1 approves 126.000001 USDC instead of 125 USDC."],
      [2, "amount", "Transaction 2 pays 125.000001 USDC instead of 125 USDC."],
      [2, "payee", `Transaction 2 pays ${attacker} instead of the payee ${payee}.`],
      [
        2,
        "paymentReference",
        `Transaction 2 carries the payment reference ${otherReference} instead of ${reference}.`,
      ],
      [2, "fee", "Transaction 2 adds a fee of 1 USDC instead of 0 USDC."],
      [2, "feeAddress", `Transaction 2 sends the fee to ${attacker} instead of nobody (no fee).`],
    ]);
  });

  it("names an approval whose spender is not the official proxy", () => {
    const [, payment] = usdcPayment();
    const approval = wire(buildApproval({ token: usdc.address, spender: attacker, amount: 125_000_000n }));
    const result = check(singleDetails(), [approval, payment]);
    expect(result.mismatches).toEqual([
      {
        transaction: 1,
        field: "spender",
        message: `Transaction 1 lets ${attacker} spend your USDC, instead of the official ERC20FeeProxy on Base (${contracts.erc20FeeProxy}).`,
      },
    ]);
    expect(result.steps[0]?.label).toBe(`Allow ${attacker} to spend 125 USDC`);
  });

  it("refuses a token call other than approve, an approval after the payment, and a second payment", () => {
    const [approval, payment] = usdcPayment();
    const transfer = {
      to: usdc.address,
      data: encodeFunctionData({
        abi: [
          {
            type: "function",
            name: "transfer",
            stateMutability: "nonpayable",
            inputs: [
              { name: "to", type: "address" },
              { name: "amount", type: "uint256" },
            ],
            outputs: [{ type: "bool" }],
          },
        ],
        functionName: "transfer",
        args: [attacker, 125_000_000n],
      }),
      value: 0,
    };
    const result = check(singleDetails(), [payment, approval, transfer, payment]);
    expect(result.mismatches.map((mismatch) => mismatch.message)).toEqual([
      "Transaction 2 is an approval sent after the payment; approvals come first.",
      "Transaction 3 calls the USDC token, but not its approve function.",
      "Transaction 3 is an approval sent after the payment; approvals come first.",
      "Transaction 4 is a second payment; this link is paid once.",
    ]);
  });

  it("reports a malformed transaction instead of throwing", () => {
    const result = check(singleDetails(), [
      { to: "0x1234", data: "0x", value: 0 },
      { to: contracts.erc20FeeProxy, data: "0xzz", value: 0 },
      { to: contracts.erc20FeeProxy, data: "0x", value: -1 },
      null,
    ]);
    expect(result.mismatches.map((mismatch) => mismatch.message)).toEqual([
      "Transaction 1 has no valid target address.",
      "Transaction 2 has no valid calldata.",
      "Transaction 3 has an unreadable value.",
      "Transaction 4 has no valid target address.",
      `No transaction pays through the official ERC20FeeProxy on Base (${contracts.erc20FeeProxy}).`,
    ]);
  });

  it("refuses native value on a token payment and calldata of another function", () => {
    const [, payment] = usdcPayment();
    const withValue = { ...(payment as object), value: "0x1" };
    const wrongFunction = {
      to: contracts.erc20FeeProxy,
      data: encodeFunctionData({
        abi: erc20FeeProxyAbi,
        functionName: "transferFromWithReferenceAndFee",
        args: [usdc.address, payee, 125_000_000n, reference, 0n, zeroAddress],
      }).replace("0xc219a14d", "0xdeadbeef"),
      value: 0,
    };
    expect(check(singleDetails(), [withValue]).mismatches.map((mismatch) => mismatch.message)).toEqual([
      "Transaction 1 sends native value with a token payment, which needs none.",
    ]);
    expect(check(singleDetails(), [wrongFunction]).mismatches.map((mismatch) => mismatch.message)).toEqual([
      "Transaction 1 does not call transferFromWithReferenceAndFee.",
    ]);
  });
});

describe("verifyTransactions for a one-request native link", () => {
  const details = singleDetails({ amount: "0.05", paymentCurrency: "ETH-base-base", isNativeCurrency: true });
  const native = (overrides: Partial<Parameters<typeof buildPaymentTransactions>[0]> = {}) =>
    buildPaymentTransactions({
      network: "base",
      token: eth,
      payee,
      amount: 50_000_000_000_000_000n,
      paymentReference: reference,
      feeAmount: 0n,
      feeAddress: undefined,
      ...overrides,
    }).transactions.map(wire);

  it("passes the server's payment through the EthereumFeeProxy", () => {
    const result = check(details, native());
    expect(result.mismatches).toEqual([]);
    expect(result.steps.map((step) => step.label)).toEqual([`Pay 0.05 ETH-base to ${payee}`]);
  });

  it("names a value other than amount plus fee", () => {
    expect(check(details, native({ amount: 60_000_000_000_000_000n })).mismatches).toEqual([
      {
        transaction: 1,
        field: "amount",
        message: "Transaction 1 sends 0.06 ETH-base instead of 0.05 ETH-base (amount and fee).",
      },
    ]);
  });
});

describe("verifyTransactions for a batch link", () => {
  const details = {
    paymentType: "batch",
    status: "pending",
    requestIds: [requestId, `01${"cd".repeat(32)}`],
    network: "base",
    payees: [payee, otherPayee],
    amounts: ["40", "12.5"],
    paymentCurrencies: ["USDC-base", "USDC-base"],
    isNativeCurrency: false,
    paymentReferences: [reference, otherReference],
    feeAmounts: ["0", "0"],
    feeAddress: null,
    reference: null,
    redirectUrl: null,
    expiresAt: "2026-04-19T10:00:00.000Z",
    feePlan: null,
  } as SecurePaymentDetails;
  const batch = (second: { payee?: `0x${string}`; amount?: bigint } = {}, feeTo: `0x${string}` = payer) => {
    const built = buildBatchPaymentTransactions({
      network: "base",
      payments: [
        { token: usdc, payee, amount: 40_000_000n, paymentReference: reference, feeAmount: 0n },
        {
          token: usdc,
          payee: second.payee ?? otherPayee,
          amount: second.amount ?? 12_500_000n,
          paymentReference: otherReference,
          feeAmount: 0n,
        },
      ],
      feeAddress: feeTo,
    });
    return [...built.approvals, built.batchPayment].map(wire);
  };

  it("passes the server's approval and batchPayments call, with the payer as fee address", () => {
    const result = check(details, batch());
    expect(result.mismatches).toEqual([]);
    expect(result.steps.map((step) => step.label)).toEqual([
      "Allow the BatchConversionPayments contract to spend 52.5 USDC",
      "Pay 2 payments through the BatchConversionPayments contract",
    ]);
  });

  it("names a payment of the batch made to someone else, for another amount", () => {
    const result = check(details, batch({ payee: attacker, amount: 13_000_000n }));
    expect(result.mismatches.map((mismatch) => mismatch.message)).toEqual([
      "Transaction 1 approves 53 USDC instead of 52.5 USDC.",
      `Transaction 2 pays payment 2 to ${attacker} instead of the payee ${otherPayee}.`,
      "Transaction 2 pays 13 USDC for payment 2 instead of 12.5 USDC.",
    ]);
  });

  it("names a fee address other than the payer, a missing payment and a foreign reference", () => {
    const built = buildBatchPaymentTransactions({
      network: "base",
      payments: [
        { token: usdc, payee, amount: 40_000_000n, paymentReference: reference, feeAmount: 0n },
        {
          token: usdc,
          payee: attacker,
          amount: 12_500_000n,
          paymentReference: "0x0000000000000001",
          feeAmount: 0n,
        },
      ],
      feeAddress: attacker,
    });
    const result = check(details, [...built.approvals, built.batchPayment].map(wire));
    expect(result.mismatches.map((mismatch) => mismatch.message)).toEqual([
      `Transaction 2 sends the fees to ${attacker} instead of ${payer}.`,
      `Transaction 2 pays ${attacker} under the payment reference 0x0000000000000001, which is not one of this link's payments.`,
      `No transaction pays payment 2 (12.5 USDC to ${otherPayee}, reference ${otherReference}).`,
    ]);
  });
});

describe("readExpectedLink", () => {
  it("refuses details without the payment reference, naming the field", () => {
    const { paymentReference: _dropped, ...details } = singleDetails() as Record<string, unknown>;
    expect(() => readExpectedLink(details as SecurePaymentDetails)).toThrow(
      new LinkDetailsError(
        "paymentReference is missing or malformed, so the payment reference of the transactions cannot be checked.",
      ),
    );
  });

  it("refuses garbled fields with the chain module's message, naming the field", () => {
    const refusal = (overrides: Record<string, unknown>) => {
      try {
        readExpectedLink(singleDetails(overrides as Partial<SecurePaymentDetails>));
      } catch (error) {
        if (error instanceof LinkDetailsError) return error.message;
        throw error;
      }
      throw new Error("expected a LinkDetailsError");
    };
    expect(refusal({ payee: "0x1234" })).toBe("payee must be 0x and 40 hex digits.");
    expect(refusal({ payee: undefined })).toBe("payee is missing.");
    expect(refusal({ feeAddress: "0xnope" })).toBe("feeAddress must be 0x and 40 hex digits.");
    expect(refusal({ paymentReference: "0xa0098add01acc7" })).toBe(
      "paymentReference must be 0x and 16 hex digits.",
    );
    expect(refusal({ amount: "1e6" })).toBe(
      "amount must be a decimal number such as 12.50 (digits, an optional fraction, no sign or exponent).",
    );
    expect(refusal({ paymentCurrency: "USDC-mainnet" })).toBe(
      "paymentCurrency USDC-mainnet is on mainnet, not on base.",
    );
  });

  it("refuses a batch answer without payees, and names a missing amount, which Request API 0.31.0 leaves optional", () => {
    const batch = {
      paymentType: "batch",
      status: "pending",
      network: "base",
      requestIds: [`01${"a".repeat(64)}`],
    };
    expect(() => readExpectedLink(batch as SecurePaymentDetails)).toThrow(
      new LinkDetailsError("payees is missing, so the page cannot tell whom the link pays."),
    );
    expect(() =>
      readExpectedLink({
        ...batch,
        payees: ["0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7"],
        paymentCurrencies: ["USDC-base"],
      } as SecurePaymentDetails),
    ).toThrow("amounts[0] is missing.");
  });

  it("refuses a fee without a fee address and an unknown currency", () => {
    expect(() => readExpectedLink(singleDetails({ feeAmount: "1" }))).toThrow(
      "feeAddress is missing although the link has a fee.",
    );
    expect(() => readExpectedLink(singleDetails({ paymentCurrency: "XYZ-base" }))).toThrow(
      "paymentCurrency XYZ-base is not a currency this page knows.",
    );
  });
});
