import type { Address } from "viem";
import {
  type BatchRequestDetail,
  batchConversionPaymentsAbi,
  batchPaymentNetworkIds,
  type TokenRecord,
} from "../chain/index.ts";
import type { ExpectedLink, ExpectedPayment } from "./expected-link.ts";
import {
  type CheckedStep,
  checkApproval,
  Findings,
  formatAmount,
  officialAddress,
  officialLabel,
  readTransaction,
  sameAddress,
  tryDecode,
  type Verification,
} from "./verify-common.ts";

/** What the batch must pull per ERC-20 token: every amount and fee paid in it. */
function requiredAllowances(
  payments: readonly ExpectedPayment[],
): Map<string, { token: TokenRecord; amount: bigint }> {
  const totals = new Map<string, { token: TokenRecord; amount: bigint }>();
  for (const payment of payments) {
    if (payment.token.type !== "ERC20") continue;
    const key = payment.token.address.toLowerCase();
    const total = totals.get(key) ?? { token: payment.token, amount: 0n };
    total.amount += payment.amount + payment.feeAmount;
    totals.set(key, total);
  }
  return totals;
}

function checkDetail(
  n: number,
  networkId: bigint,
  detail: BatchRequestDetail,
  payment: ExpectedPayment,
  position: number,
  findings: Findings,
): void {
  const { token } = payment;
  const what = `payment ${position}`;
  if (!sameAddress(detail.recipient, payment.payee)) {
    findings.add(
      n,
      "payee",
      `Transaction ${n} pays ${what} to ${detail.recipient} instead of the payee ${payment.payee}.`,
    );
  }
  if (detail.requestAmount !== payment.amount) {
    findings.add(
      n,
      "amount",
      `Transaction ${n} pays ${formatAmount(detail.requestAmount, token)} for ${what} instead of ${formatAmount(payment.amount, token)}.`,
    );
  }
  if (detail.feeAmount !== payment.feeAmount) {
    findings.add(
      n,
      "fee",
      `Transaction ${n} adds a fee of ${formatAmount(detail.feeAmount, token)} to ${what} instead of ${formatAmount(payment.feeAmount, token)}.`,
    );
  }
  const native = token.type === "ETH";
  const rightKind = native
    ? networkId === batchPaymentNetworkIds.native
    : networkId === batchPaymentNetworkIds.singleErc20 || networkId === batchPaymentNetworkIds.multiErc20;
  const rightToken =
    native || (detail.path.length === 1 && sameAddress(detail.path[0] as Address, token.address));
  if (!rightKind || !rightToken) {
    findings.add(n, "token", `Transaction ${n} pays ${what} in another currency than ${token.symbol}.`);
  }
}

/** Checks the `batchPayments` calls: every reviewed payment exactly once, nothing else. */
function checkBatchCalls(
  link: ExpectedLink,
  calls: { n: number; step: CheckedStep }[],
  payer: Address,
  findings: Findings,
): void {
  const seen = new Set<string>();
  const feeAddress = link.feeAddress ?? payer;
  let value = 0n;
  for (const { n, step } of calls) {
    const decoded = tryDecode(batchConversionPaymentsAbi, step.data);
    if (decoded?.functionName !== "batchPayments") {
      findings.add(n, "function", `Transaction ${n} does not call batchPayments.`);
      continue;
    }
    value += step.value;
    const [metaDetails, , batchFeeAddress] = decoded.args;
    if (!sameAddress(batchFeeAddress, feeAddress)) {
      findings.add(
        n,
        "feeAddress",
        `Transaction ${n} sends the fees to ${batchFeeAddress} instead of ${feeAddress}.`,
      );
    }
    for (const meta of metaDetails) {
      const tokens = new Set(meta.requestDetails.map((detail) => detail.path[0]?.toLowerCase()));
      if (meta.paymentNetworkId === batchPaymentNetworkIds.singleErc20 && tokens.size > 1) {
        findings.add(n, "token", `Transaction ${n} pays several tokens in a group meant for one token.`);
      }
      for (const detail of meta.requestDetails) {
        const reference = detail.paymentReference.toLowerCase();
        const position = link.payments.findIndex((payment) => payment.paymentReference === reference);
        const payment = link.payments[position];
        if (!payment) {
          findings.add(
            n,
            "paymentReference",
            `Transaction ${n} pays ${detail.recipient} under the payment reference ${reference}, which is not one of this link's payments.`,
          );
          continue;
        }
        if (seen.has(reference)) {
          findings.add(
            n,
            "count",
            `Transaction ${n} pays payment ${position + 1} (${reference}) a second time.`,
          );
          continue;
        }
        seen.add(reference);
        checkDetail(n, meta.paymentNetworkId, detail, payment, position + 1, findings);
      }
    }
  }
  link.payments.forEach((payment, index) => {
    if (!seen.has(payment.paymentReference)) {
      findings.add(
        null,
        "count",
        `No transaction pays payment ${index + 1} (${formatAmount(payment.amount, payment.token)} to ${payment.payee}, reference ${payment.paymentReference}).`,
      );
    }
  });
  const nativePayments = link.payments.filter((payment) => payment.token.type === "ETH");
  const expectedValue = nativePayments.reduce((sum, payment) => sum + payment.amount + payment.feeAmount, 0n);
  const nativeToken = nativePayments[0]?.token;
  if (calls.length > 0 && value !== expectedValue) {
    const shown = (units: bigint) => (nativeToken ? formatAmount(units, nativeToken) : `${units} wei`);
    findings.add(
      null,
      "value",
      `The batch sends ${shown(value)} of native value instead of ${shown(expectedValue)}.`,
    );
  }
}

/**
 * Checks the transactions of a batch link: approvals of the payment tokens for the official
 * BatchConversionPayments, then `batchPayments` calls on it that pay every reviewed payment
 * exactly once, with its payee, amount, fee and payment reference.
 */
export function verifyBatchPayment(
  link: ExpectedLink,
  transactions: readonly unknown[],
  payer: Address,
): Verification {
  const findings = new Findings();
  const allowances = requiredAllowances(link.payments);
  const batchContract = officialAddress(link, "BatchConversionPayments");
  const calls: { n: number; step: CheckedStep }[] = [];
  transactions.forEach((raw, index) => {
    const n = index + 1;
    const step = readTransaction(raw, n, findings);
    if (!step) return;
    findings.steps.push(step);
    const allowance = allowances.get(step.to.toLowerCase());
    if (allowance) {
      const expected = { ...allowance, spenderName: "BatchConversionPayments" as const, link };
      checkApproval(step, n, expected, findings);
      if (calls.length > 0) {
        findings.add(
          n,
          "order",
          `Transaction ${n} is an approval sent after the payment; approvals come first.`,
        );
      }
      return;
    }
    if (!sameAddress(step.to, batchContract)) {
      findings.add(
        n,
        "target",
        `Transaction ${n} goes to ${step.to}, which is neither ${officialLabel(link, "BatchConversionPayments")} nor a token of this payment.`,
      );
      return;
    }
    step.kind = "payment";
    step.label = `Pay ${link.payments.length} payments through the BatchConversionPayments contract`;
    calls.push({ n, step });
  });
  if (calls.length === 0) {
    findings.add(
      null,
      "count",
      `No transaction pays through ${officialLabel(link, "BatchConversionPayments")}.`,
    );
  }
  checkBatchCalls(link, calls, payer, findings);
  return findings.result();
}
