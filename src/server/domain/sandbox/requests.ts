import type { TokenRecord } from "../../../chain/index.ts";
import type { OperationInput } from "../../operations/operation-types.ts";
import { invalidState, validationFailed } from "../../problems.ts";
import type { RequestRecord } from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import { formatBaseUnits, readAmount } from "../amounts.ts";
import type { DomainContext } from "../context.ts";
import { newTxHash } from "../ids.ts";
import { type PaymentToRecord, recordPayment } from "../record-payment.ts";
import { loadOwnRequest, paymentTokenOf, remainingAmount } from "../requests.ts";
import { effectiveStatus } from "../secure-payments.ts";
import type { Schemas } from "../wire-types.ts";

export async function toSandboxRequest(
  tx: StoreOperations,
  request: RequestRecord,
  now: Date,
): Promise<Schemas["SandboxRequest"]> {
  const { decimals } = paymentTokenOf(request);
  const securePayment = request.securePaymentToken
    ? await tx.getSecurePayment(request.securePaymentToken)
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

/** The base units a payment record moves, checked against what its outcome allows. */
function paidAmount(
  body: Schemas["SandboxPaymentRecord"],
  request: RequestRecord,
  token: TokenRecord,
): bigint {
  const left = remainingAmount(request);
  if (body.outcome === "failed") {
    if (body.amount !== undefined) {
      throw validationFailed([
        { path: "/body/amount", message: "is not allowed for a failed payment, which pays nothing" },
      ]);
    }
    return 0n;
  }
  if (body.amount === undefined) {
    if (body.outcome === "partial") {
      throw validationFailed([{ path: "/body/amount", message: "is required for a partial payment" }]);
    }
    return left;
  }
  const reading = readAmount(body.amount, token.decimals, token.id);
  if (!reading.ok) throw validationFailed([{ path: "/body/amount", message: reading.message }]);
  const amount = reading.units;
  const leftText = `${formatBaseUnits(left, token.decimals)} ${token.id}`;
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

/**
 * Sandbox: records a payment outcome for a request as if the chain had seen it, and completes
 * its secure payment once all of that payment's requests are paid. One transaction: the change
 * and its events (the webhook event among them) are kept together or not at all.
 */
export async function recordSandboxPayment(
  ctx: DomainContext,
  { principal, path: { requestId }, body }: OperationInput<"recordSandboxPayment">,
): Promise<Schemas["SandboxRequest"]> {
  return ctx.store.withTransaction(async (tx) => {
    const request = await loadOwnRequest(tx, principal, requestId);
    if (request.status === "paid") {
      throw invalidState(`Request ${requestId} is already paid; it accepts no further payment.`);
    }
    if (body.outcome !== "failed" && body.subStatus !== undefined) {
      throw validationFailed([{ path: "/body/subStatus", message: "is only allowed for a failed payment" }]);
    }
    const token = paymentTokenOf(request);
    const amount = paidAmount(body, request, token);
    const now = ctx.clock.now();
    const payment: PaymentToRecord = {
      outcome: body.outcome,
      amount: amount.toString(),
      txHash: (body.txHash as `0x${string}` | undefined) ?? newTxHash(),
      subStatus: body.outcome === "failed" ? (body.subStatus ?? "insufficient_funds") : null,
      recordedAt: now.toISOString(),
    };
    const updated = await recordPayment(tx, request, payment, now);
    return toSandboxRequest(tx, updated, now);
  });
}
