import type { RequestRecord } from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import { periodsDue } from "../shared/recurrence.ts";
import { createRequestRecord, paymentTokenOf, storeNewRequest } from "../shared/requests.ts";
import { appendRequestRecurring } from "../shared/webhook-events.ts";

/** A later period of `original`: the same payee, amount and currencies, a new id and reference. */
function periodOf(original: RequestRecord, now: Date): RequestRecord {
  const created = createRequestRecord(
    {
      item: {
        payee: original.payee,
        amount: original.invoiceAmount,
        invoiceCurrency: original.invoiceCurrency,
        paymentCurrency: original.paymentCurrency,
      },
      token: paymentTokenOf(original),
      expectedAmount: BigInt(original.expectedAmount),
    },
    {
      accountId: original.accountId,
      now,
      securePaymentToken: null,
      clientId: original.clientId ?? null,
      origin: original.origin ?? null,
    },
  );
  return {
    ...created,
    payer: original.payer ?? null,
    recurrence: null,
    isRecurrenceStopped: false,
    isCryptoToFiatAvailable: original.isCryptoToFiatAvailable ?? false,
    customerInfo: original.customerInfo ?? null,
    reference: original.reference ?? null,
    originalRequestId: original.requestId,
    originalRequestPaymentReference: original.paymentReference,
  };
}

/**
 * Creates, inside the caller's transaction, every later period of the account's recurring
 * requests that has started by `now` and was not created yet, each with its `request.recurring`
 * webhook. The count kept on the first request makes each period once: a concurrent move of the
 * same clock conflicts on it and, run again, sees the periods the other created.
 */
export async function issueDueRequestPeriods(
  tx: StoreOperations,
  accountId: string,
  now: Date,
): Promise<number> {
  const { items } = await tx.requests.find("recurringInvoices", accountId);
  let issued = 0;
  for (const original of items) {
    if (!original.recurrence || original.isRecurrenceStopped || original.originalRequestId) continue;
    const done = original.recurrencePeriodsIssued ?? 0;
    const due = periodsDue(original, now);
    if (due <= done) continue;
    for (let period = done + 1; period <= due; period++) {
      const request = periodOf(original, now);
      await storeNewRequest(tx, request, { securePaymentToken: null }, now.toISOString());
      await appendRequestRecurring(tx, request, original, now);
      issued++;
    }
    await tx.requests.put({ ...original, recurrencePeriodsIssued: due, updatedAt: now.toISOString() });
  }
  return issued;
}
