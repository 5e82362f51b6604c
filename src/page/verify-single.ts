import { type Address, zeroAddress } from "viem";
import { erc20FeeProxyAbi, ethereumFeeProxyAbi } from "../chain/index.ts";
import type { ExpectedLink, ExpectedPayment } from "./expected-link.ts";
import {
  type CheckedStep,
  checkApproval,
  Findings,
  formatAmount,
  type OfficialName,
  officialAddress,
  officialLabel,
  readTransaction,
  sameAddress,
  tryDecode,
  type Verification,
} from "./verify-common.ts";

/** The fields both fee proxies carry, compared with what the payer reviewed. */
function checkCommonFields(
  n: number,
  actual: { payee: Address; reference: string; feeAmount: bigint; feeAddress: Address },
  payment: ExpectedPayment,
  feeAddress: Address,
  findings: Findings,
): void {
  if (!sameAddress(actual.payee, payment.payee)) {
    findings.add(n, "payee", `Transaction ${n} pays ${actual.payee} instead of the payee ${payment.payee}.`);
  }
  if (actual.reference.toLowerCase() !== payment.paymentReference) {
    findings.add(
      n,
      "paymentReference",
      `Transaction ${n} carries the payment reference ${actual.reference} instead of ${payment.paymentReference}.`,
    );
  }
  if (actual.feeAmount !== payment.feeAmount) {
    findings.add(
      n,
      "fee",
      `Transaction ${n} adds a fee of ${formatAmount(actual.feeAmount, payment.token)} instead of ${formatAmount(payment.feeAmount, payment.token)}.`,
    );
  }
  if (!sameAddress(actual.feeAddress, feeAddress)) {
    findings.add(
      n,
      "feeAddress",
      `Transaction ${n} sends the fee to ${actual.feeAddress} instead of ${feeAddress === zeroAddress ? "nobody (no fee)" : feeAddress}.`,
    );
  }
}

function checkErc20Payment(step: CheckedStep, n: number, link: ExpectedLink, findings: Findings): void {
  const payment = link.payments[0] as ExpectedPayment;
  const decoded = tryDecode(erc20FeeProxyAbi, step.data);
  if (decoded?.functionName !== "transferFromWithReferenceAndFee") {
    findings.add(n, "function", `Transaction ${n} does not call transferFromWithReferenceAndFee.`);
    return;
  }
  const [token, payee, amount, reference, feeAmount, feeAddress] = decoded.args;
  step.label = `Pay ${formatAmount(amount, payment.token)} to ${payee}`;
  if (!sameAddress(token, payment.token.address)) {
    findings.add(
      n,
      "token",
      `Transaction ${n} pays in the token ${token} instead of ${payment.token.symbol} (${payment.token.address}).`,
    );
  }
  if (amount !== payment.amount) {
    findings.add(
      n,
      "amount",
      `Transaction ${n} pays ${formatAmount(amount, payment.token)} instead of ${formatAmount(payment.amount, payment.token)}.`,
    );
  }
  checkCommonFields(
    n,
    { payee, reference, feeAmount, feeAddress },
    payment,
    link.feeAddress ?? zeroAddress,
    findings,
  );
  if (step.value !== 0n) {
    findings.add(n, "value", `Transaction ${n} sends native value with a token payment, which needs none.`);
  }
}

function checkNativePayment(step: CheckedStep, n: number, link: ExpectedLink, findings: Findings): void {
  const payment = link.payments[0] as ExpectedPayment;
  const decoded = tryDecode(ethereumFeeProxyAbi, step.data);
  if (decoded?.functionName !== "transferWithReferenceAndFee") {
    findings.add(n, "function", `Transaction ${n} does not call transferWithReferenceAndFee.`);
    return;
  }
  const [payee, reference, feeAmount, feeAddress] = decoded.args;
  // The proxy forwards the value minus the fee to the payee.
  step.label = `Pay ${formatAmount(step.value - feeAmount, payment.token)} to ${payee}`;
  const expectedValue = payment.amount + payment.feeAmount;
  if (step.value !== expectedValue) {
    findings.add(
      n,
      "amount",
      `Transaction ${n} sends ${formatAmount(step.value, payment.token)} instead of ${formatAmount(expectedValue, payment.token)} (amount and fee).`,
    );
  }
  checkCommonFields(
    n,
    { payee, reference, feeAmount, feeAddress },
    payment,
    link.feeAddress ?? zeroAddress,
    findings,
  );
}

/**
 * Checks the transactions of a one-request link: optional approvals of the payment token for the
 * official ERC20FeeProxy, then exactly one payment through the official fee proxy of the
 * network, paying the reviewed payee, amount, fee and payment reference.
 */
export function verifySinglePayment(link: ExpectedLink, transactions: readonly unknown[]): Verification {
  const payment = link.payments[0] as ExpectedPayment;
  const native = payment.token.type === "ETH";
  const proxyName: OfficialName = native ? "EthereumFeeProxy" : "ERC20FeeProxy";
  const proxy = officialAddress(link, proxyName);
  const findings = new Findings();
  let payments = 0;
  transactions.forEach((raw, index) => {
    const n = index + 1;
    const step = readTransaction(raw, n, findings);
    if (!step) return;
    findings.steps.push(step);
    if (!native && sameAddress(step.to, payment.token.address)) {
      const amount = payment.amount + payment.feeAmount;
      checkApproval(step, n, { token: payment.token, spenderName: proxyName, amount, link }, findings);
      if (payments > 0) {
        findings.add(
          n,
          "order",
          `Transaction ${n} is an approval sent after the payment; approvals come first.`,
        );
      }
      return;
    }
    if (!sameAddress(step.to, proxy)) {
      const tokenPart = native ? "" : ` nor the ${payment.token.symbol} token (${payment.token.address})`;
      findings.add(
        n,
        "target",
        `Transaction ${n} goes to ${step.to}, which is not ${officialLabel(link, proxyName)}${tokenPart}.`,
      );
      return;
    }
    step.kind = "payment";
    step.label = `Payment through ${proxyName}`;
    payments += 1;
    if (payments > 1) {
      findings.add(n, "count", `Transaction ${n} is a second payment; this link is paid once.`);
      return;
    }
    if (native) checkNativePayment(step, n, link, findings);
    else checkErc20Payment(step, n, link, findings);
  });
  if (payments === 0) {
    findings.add(null, "count", `No transaction pays through ${officialLabel(link, proxyName)}.`);
  }
  return findings.result();
}
