import { newUlid } from "../../ids.ts";
import type { RequestPaymentRecord, RequestRecord, RequestStatus } from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import { formatBaseUnits } from "./amounts.ts";
import { paymentTokenOf } from "./requests.ts";
import { completeIfAllPaid } from "./secure-payment-status.ts";
import { appendPaymentWebhookEvent } from "./webhook-events.ts";

/** What the request holds as paid after the record: payments add, refunds take away, steps change nothing. */
function amountPaidAfter(request: RequestRecord, payment: RequestPaymentRecord): bigint {
  const before = BigInt(request.amountPaid);
  if (payment.outcome === "paid" || payment.outcome === "partial") return before + BigInt(payment.amount);
  if (payment.outcome === "refunded") return before - BigInt(payment.amount);
  return before;
}

/** The request's status after the record. */
function statusAfter(
  request: RequestRecord,
  payment: RequestPaymentRecord,
  amountPaid: bigint,
): RequestStatus {
  switch (payment.outcome) {
    case "paid":
      return "paid";
    case "partial":
      return "partially_paid";
    case "failed":
      return "failed";
    case "processing":
      return request.status;
    case "refunded":
      if (amountPaid === 0n) return "pending";
      return amountPaid < BigInt(request.expectedAmount) ? "partially_paid" : "paid";
  }
}

/** A payment to record: its id is assigned here; `payer` and `sourceNetwork` are null unless known. */
export type PaymentToRecord = Omit<RequestPaymentRecord, "id" | "payer" | "sourceNetwork"> &
  Partial<Pick<RequestPaymentRecord, "payer" | "sourceNetwork">>;

/**
 * Records one payment outcome on a request inside the caller's transaction: the request's new
 * state, the `request.payment_recorded` and webhook events in the outbox, and the completion of
 * its link once all of the link's requests are paid. A payment of a recurring payment's period
 * names it in its webhook (`recurringPayment`).
 */
export async function recordPayment(
  tx: StoreOperations,
  request: RequestRecord,
  given: PaymentToRecord,
  now: Date,
): Promise<RequestRecord> {
  const payment: RequestPaymentRecord = {
    payer: null,
    sourceNetwork: null,
    ...given,
    id: newUlid(new Date(given.recordedAt)),
  };
  const token = paymentTokenOf(request);
  const amountPaid = amountPaidAfter(request, payment);
  const status = statusAfter(request, payment, amountPaid);
  const updated: RequestRecord = {
    ...request,
    status,
    amountPaid: amountPaid.toString(),
    payments: [...request.payments, payment],
    updatedAt: now.toISOString(),
  };
  await tx.requests.put(updated);
  await tx.appendEvent({
    type: "request.payment_recorded",
    occurredAt: now.toISOString(),
    data: {
      requestId: request.requestId,
      paymentReference: request.paymentReference,
      outcome: payment.outcome,
      amount: formatBaseUnits(payment.amount, token.decimals),
      totalAmountPaid: formatBaseUnits(amountPaid, token.decimals),
      expectedAmount: formatBaseUnits(request.expectedAmount, token.decimals),
      txHash: payment.txHash,
      network: request.network,
      currency: request.invoiceCurrency,
      paymentCurrency: request.paymentCurrency,
      subStatus: payment.subStatus,
    },
  });
  await appendPaymentWebhookEvent(tx, updated, payment, token, amountPaid);
  if (updated.securePaymentToken && status === "paid") {
    await completeIfAllPaid(tx, updated.securePaymentToken, now);
  }
  return updated;
}
