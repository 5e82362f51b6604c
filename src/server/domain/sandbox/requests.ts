import type { TokenRecord } from "../../../chain/index.ts";
import { newTxHash } from "../../ids.ts";
import { invalidState, type ValidationIssue, validationFailed } from "../../problems.ts";
import type { RequestRecord } from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import { formatBaseUnits, readAmount } from "../shared/amounts.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadOwnRequest } from "../shared/own-records.ts";
import { type PaymentToRecord, recordPayment } from "../shared/record-payment.ts";
import { paymentTokenOf, remainingAmount } from "../shared/requests.ts";
import { effectiveStatus } from "../shared/secure-payment-status.ts";
import { checksummed } from "../shared/wallet-book.ts";
import type { Schemas } from "../shared/wire-types.ts";

export async function toSandboxRequest(
  tx: StoreOperations,
  request: RequestRecord,
  now: Date,
): Promise<Schemas["SandboxRequest"]> {
  const { decimals } = paymentTokenOf(request);
  const securePayment = request.securePaymentToken
    ? await tx.securePayments.get(request.securePaymentToken)
    : undefined;
  return {
    requestId: request.requestId,
    paymentReference: request.paymentReference,
    network: request.network,
    payee: request.payee,
    amount: request.invoiceAmount,
    invoiceCurrency: request.invoiceCurrency,
    paymentCurrency: request.paymentCurrency,
    expectedAmount: formatBaseUnits(request.expectedAmount, decimals),
    amountPaid: formatBaseUnits(request.amountPaid, decimals),
    status: request.status,
    payments: request.payments.map((payment) => ({
      outcome: payment.outcome,
      amount: formatBaseUnits(payment.amount, decimals),
      txHash: payment.txHash,
      subStatus: payment.subStatus,
      recordedAt: payment.recordedAt,
    })),
    securePayment: securePayment
      ? {
          token: securePayment.token,
          status: effectiveStatus(securePayment, now),
          expiresAt: securePayment.expiresAt,
        }
      : null,
    createdAt: request.createdAt,
  };
}

export async function getSandboxRequest(
  ctx: DomainContext,
  { principal, path: { requestId } }: OperationInput<"getSandboxRequest">,
): Promise<Schemas["SandboxRequest"]> {
  const request = await loadOwnRequest(ctx.store, principal, requestId);
  return toSandboxRequest(ctx.store, request, ctx.clock.now());
}

/** The steps a crypto-to-fiat payment reports in `payment.processing`. */
const processingSteps = [
  "initiated",
  "pending_internal_assessment",
  "ongoing_checks",
  "sending_fiat",
  "fiat_sent",
  "bounced",
  "retry_required",
];

type PaymentRecordBody = Schemas["SandboxPaymentRecord"];

/** The members only some outcomes take: each named one sent with another outcome is an issue. */
function misplacedMembers(body: PaymentRecordBody): ValidationIssue[] {
  const allowed: Record<string, PaymentRecordBody["outcome"][]> = {
    amount: ["paid", "partial", "refunded"],
    subStatus: ["failed", "processing"],
    payerAddress: ["paid", "partial"],
    payerEoaAddress: ["paid", "partial"],
    refundedTo: ["refunded"],
  };
  return Object.entries(allowed)
    .filter(
      ([member, outcomes]) =>
        body[member as keyof PaymentRecordBody] !== undefined && !outcomes.includes(body.outcome),
    )
    .map(([member, outcomes]) => ({
      path: `/body/${member}`,
      message: `is only allowed for ${outcomes.slice(0, -1).join(", ")}${outcomes.length > 1 ? " or " : ""}${outcomes.at(-1)}, not for ${body.outcome}`,
    }));
}

/** The base units a payment record moves, checked against what its outcome allows. */
function paidAmount(body: PaymentRecordBody, request: RequestRecord, token: TokenRecord): bigint {
  const left = remainingAmount(request);
  if (body.outcome === "failed" || body.outcome === "processing") return 0n;
  const paid = BigInt(request.amountPaid);
  if (body.amount === undefined) {
    if (body.outcome === "partial") {
      throw validationFailed([{ path: "/body/amount", message: "is required for a partial payment" }]);
    }
    return body.outcome === "refunded" ? paid : left;
  }
  const reading = readAmount(body.amount, token.decimals, token.id);
  if (!reading.ok) throw validationFailed([{ path: "/body/amount", message: reading.message }]);
  const amount = reading.units;
  const leftText = `${formatBaseUnits(left, token.decimals)} ${token.id}`;
  if (body.outcome === "refunded" && (amount === 0n || amount > paid)) {
    throw validationFailed([
      {
        path: "/body/amount",
        message: `must be above 0 and at most what was paid (${formatBaseUnits(paid, token.decimals)} ${token.id}) for a refund, got "${body.amount}"`,
      },
    ]);
  }
  if (body.outcome === "partial" && (amount === 0n || amount >= left)) {
    throw validationFailed([
      {
        path: "/body/amount",
        message: `must be above 0 and below what is left to pay (${leftText}) for a partial payment; record a paid outcome instead, got "${body.amount}"`,
      },
    ]);
  }
  if (body.outcome === "paid" && amount < left) {
    throw validationFailed([
      {
        path: "/body/amount",
        message: `must cover what is left to pay (${leftText}) for a paid outcome; record a partial payment instead, got "${body.amount}"`,
      },
    ]);
  }
  return amount;
}

/** Why the request cannot take this outcome now; undefined when it can. */
function stateRefusal(body: PaymentRecordBody, request: RequestRecord): Error | undefined {
  const paying = body.outcome === "paid" || body.outcome === "partial" || body.outcome === "failed";
  if (paying && request.status === "paid") {
    return invalidState(`Request ${request.requestId} is already paid; it accepts no further payment.`);
  }
  if (body.outcome === "refunded" && BigInt(request.amountPaid) === 0n) {
    return invalidState(`Request ${request.requestId} has nothing paid, so there is nothing to refund.`);
  }
  return undefined;
}

/** The issues of the members an outcome needs or constrains beyond the schema. */
function outcomeIssues(body: PaymentRecordBody): ValidationIssue[] {
  const issues = misplacedMembers(body);
  if (body.outcome === "refunded" && body.refundedTo === undefined) {
    issues.push({
      path: "/body/refundedTo",
      message: "is required for a refund: name the wallet it goes to",
    });
  }
  if (
    body.outcome === "processing" &&
    body.subStatus !== undefined &&
    !processingSteps.includes(body.subStatus)
  ) {
    issues.push({
      path: "/body/subStatus",
      message: `must be a step of a crypto-to-fiat payment (${processingSteps.join(", ")}), got "${body.subStatus}"`,
    });
  }
  return issues;
}

function subStatusOf(body: PaymentRecordBody): string | null {
  if (body.outcome === "failed") return body.subStatus ?? "insufficient_funds";
  if (body.outcome === "processing") return body.subStatus ?? "initiated";
  return null;
}

/**
 * Sandbox: records a payment outcome for a request as if the chain (or the off-ramp processor)
 * had seen it, and completes its secure payment once all of that payment's requests are paid. One
 * transaction: the change and its events (the webhook event among them) are kept together or not
 * at all.
 */
export async function recordSandboxPayment(
  ctx: DomainContext,
  { principal, path: { requestId }, body }: OperationInput<"recordSandboxPayment">,
): Promise<Schemas["SandboxRequest"]> {
  return ctx.store.withTransaction(async (tx) => {
    const request = await loadOwnRequest(tx, principal, requestId);
    const refused = stateRefusal(body, request);
    if (refused) throw refused;
    const issues = outcomeIssues(body);
    if (issues.length > 0) throw validationFailed(issues);
    const token = paymentTokenOf(request);
    const amount = paidAmount(body, request, token);
    const now = ctx.clock.now();
    const payment: PaymentToRecord = {
      outcome: body.outcome,
      amount: amount.toString(),
      txHash: (body.txHash as `0x${string}` | undefined) ?? newTxHash(),
      subStatus: subStatusOf(body),
      recordedAt: now.toISOString(),
      ...(body.payerAddress ? { payer: checksummed(body.payerAddress) } : {}),
      ...(body.payerEoaAddress ? { payerEoaAddress: checksummed(body.payerEoaAddress) } : {}),
      ...(body.refundedTo ? { refundedTo: checksummed(body.refundedTo) } : {}),
    };
    const updated = await recordPayment(tx, request, payment, now);
    return toSandboxRequest(tx, updated, now);
  });
}
