import { describe, expect, it } from "vitest";
import { InvalidValueError, normaliseBatchPayout, transactionValueToBigInt } from "../../src/index.ts";
import { specExample } from "./fetch-stub.ts";

const batchContract = "0x1aF3f22685AcdDc788B3730ed415912d8f654420";
type Example = Record<string, unknown>;

describe("normaliseBatchPayout", () => {
  it("reads the split form older versions of the service answered, with approvals (ERC-20 batch)", () => {
    const {
      batchPaymentTransaction,
      requests: _,
      ...rest
    } = specExample("BatchPayoutErc20WithApproval") as Example;
    const example: Example = { ...rest, ERC20BatchPaymentTransaction: batchPaymentTransaction };
    const batch = normaliseBatchPayout(example);
    expect(batch.approvals).toEqual(example.ERC20ApprovalTransactions);
    expect(batch.payments).toEqual([example.ERC20BatchPaymentTransaction]);
    expect(batch.approvals.map((transaction) => transaction.data.slice(0, 10))).toEqual(["0x095ea7b3"]);
    expect(batch.payments.map((transaction) => [transaction.to, transaction.data.slice(0, 10)])).toEqual([
      [batchContract, "0x92cddb91"],
    ]);
  });

  it("reads the single form of an ERC-20 batch with its approval", () => {
    const example = specExample("BatchPayoutErc20WithApproval") as Example;
    const batch = normaliseBatchPayout(example);
    expect(batch.approvals).toEqual(example.ERC20ApprovalTransactions);
    expect(batch.payments).toEqual([example.batchPaymentTransaction]);
  });

  it("reads the single form of a native batch, whose approval list is empty", () => {
    const example = specExample("BatchPayoutNative") as Example;
    const batch = normaliseBatchPayout(example);
    expect(batch.approvals).toEqual([]);
    expect(batch.payments).toEqual([example.batchPaymentTransaction]);
    expect(batch.payments.map((transaction) => transactionValueToBigInt(transaction.value))).toEqual([
      70_700_000_000_000_000n,
    ]);
  });

  it("reads the single form with an empty approval list", () => {
    const example = specExample("BatchPayoutSingleTransaction") as Example;
    const batch = normaliseBatchPayout(example);
    expect(batch.approvals).toEqual([]);
    expect(batch.payments).toEqual([example.batchPaymentTransaction]);
    expect(transactionValueToBigInt(batch.payments[0]?.value ?? 0)).toBe(20_200_000_000_000_000n);
  });

  it("orders a split answer with both kinds: approvals, then the ERC-20 batch, then the native batch", () => {
    const single = specExample("BatchPayoutErc20WithApproval") as Example;
    const erc20 = {
      ERC20ApprovalTransactions: single.ERC20ApprovalTransactions,
      ERC20BatchPaymentTransaction: single.batchPaymentTransaction,
    };
    const native = {
      ETHBatchPaymentTransaction: (specExample("BatchPayoutNative") as Example).batchPaymentTransaction,
    };
    const batch = normaliseBatchPayout({
      ETHBatchPaymentTransaction: native.ETHBatchPaymentTransaction,
      ERC20BatchPaymentTransaction: erc20.ERC20BatchPaymentTransaction,
      ERC20ApprovalTransactions: erc20.ERC20ApprovalTransactions,
    });
    expect(batch).toEqual({
      approvals: erc20.ERC20ApprovalTransactions,
      payments: [erc20.ERC20BatchPaymentTransaction, native.ETHBatchPaymentTransaction],
    });
  });

  const payment = { to: batchContract, data: "0x92cddb91", value: { type: "BigNumber", hex: "0x00" } };

  it.each<[string, unknown, string]>([
    ["a non-object", [], "Invalid batch payout: expected an object, got []."],
    [
      "neither form",
      { ERC20ApprovalTransactions: [] },
      'Invalid batch payout: expected ERC20BatchPaymentTransaction, ETHBatchPaymentTransaction or batchPaymentTransaction, got an object with the keys ["ERC20ApprovalTransactions"].',
    ],
    [
      "both forms",
      { batchPaymentTransaction: payment, ERC20BatchPaymentTransaction: payment },
      "Invalid batch payout: expected one key form, either ERC20BatchPaymentTransaction / ETHBatchPaymentTransaction or batchPaymentTransaction, got both batchPaymentTransaction and ERC20BatchPaymentTransaction.",
    ],
    [
      "approvals that are not a list",
      { ERC20ApprovalTransactions: {}, batchPaymentTransaction: payment },
      "Invalid ERC20ApprovalTransactions: expected an array, got {}.",
    ],
    [
      "an approval with a bad address",
      { ERC20ApprovalTransactions: [{ ...payment, to: "0x12" }], batchPaymentTransaction: payment },
      'Invalid ERC20ApprovalTransactions[0].to: expected an EVM address (0x and 40 hex digits), got "0x12".',
    ],
    [
      "a payment with odd calldata",
      { ETHBatchPaymentTransaction: { ...payment, data: "0x123" } },
      'Invalid ETHBatchPaymentTransaction.data: expected hex calldata (0x and an even number of hex digits), got "0x123".',
    ],
    [
      "a payment with a bad value",
      { batchPaymentTransaction: { ...payment, value: "12" } },
      'Invalid batchPaymentTransaction.value: expected a non-negative safe integer, a 0x hex string or {type: "BigNumber", hex}, got "12".',
    ],
  ])("rejects %s with a message naming the field", (_name, response, message) => {
    const read = () => normaliseBatchPayout(response);
    expect(read).toThrow(InvalidValueError);
    expect(read).toThrow(message);
  });
});
