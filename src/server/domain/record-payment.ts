import type { RequestPaymentRecord, RequestRecord } from "../store/records.ts";
import type { StoreOperations } from "../store/store.ts";
import { formatBaseUnits } from "./amounts.ts";
import { newUlid } from "./ids.ts";
import { paymentTokenOf } from "./requests.ts";
import { completeIfAllPaid } from "./secure-payments.ts";
import { appendPaymentWebhookEvent } from "./webhook-payloads.ts";

/** A payment to record: its id is assigned here; `payer` and `sourceNetwork` are null unless known. */
export type PaymentToRecord = Omit<RequestPaymentRecord, "id" | "payer" | "sourceNetwork"> &
  Partial<Pick<RequestPaymentRecord, "payer" | "sourceNetwork">>;

/**
 * Records one payment on a request inside the caller's transaction: the request's new state, the
 * `request.payment_recorded` and webhook events in the outbox, and the completion of its link
 * once all of the link's requests are paid.
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
  const amountPaid = BigInt(request.amountPaid) + BigInt(payment.amount);
  const status: RequestRecord["status"] =
    payment.outcome === "failed" ? "failed" : payment.outcome === "paid" ? "paid" : "partially_paid";
  const updated: RequestRecord = {
    ...request,
    status,
    amountPaid: amountPaid.toString(),
    payments: [...request.payments, payment],
    updatedAt: now.toISOString(),
  };
  await tx.putRequest(updated);
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
