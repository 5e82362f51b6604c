import type { TokenRecord } from "../../../chain/index.ts";
import { newTxHash } from "../../ids.ts";
import { invalidState, validationFailed } from "../../problems.ts";
import type { RecurringPaymentRecord, RequestRecord } from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import { formatBaseUnits } from "../shared/amounts.ts";
import type { DomainContext } from "../shared/context.ts";
import { requireCurrency } from "../shared/currencies.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadOwnRecurringPayment } from "../shared/own-records.ts";
import { type PaymentToRecord, recordPayment } from "../shared/record-payment.ts";
import { createRequestRecord, remainingAmount, storeNewRequest } from "../shared/requests.ts";
import { appendStatusChange } from "../shared/status-changes.ts";
import { appendRequestRecurring } from "../shared/webhook-events.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { toSandboxRecurringPayment } from "./recurring-payments.ts";
import { toSandboxRequest } from "./requests.ts";

/**
 * The request the next payment pays: the one a failed execution of this period left behind, or a
 * new one for one period's amount, from the payer's schedule to the payee. A new request after the
 * first recurs from the first one (its `originalRequestId`), which `request.recurring` reports.
 */
async function periodRequest(
  tx: StoreOperations,
  record: RecurringPaymentRecord,
  token: TokenRecord,
  now: Date,
): Promise<{ request: RequestRecord; originalRequestId: string }> {
  const earlier = record.currentRequestId ? await tx.requests.get(record.currentRequestId) : undefined;
  const originalRequestId = record.originalRequestId ?? earlier?.requestId;
  if (earlier && earlier.status !== "paid")
    return { request: earlier, originalRequestId: originalRequestId ?? earlier.requestId };
  const original = originalRequestId ? await tx.requests.get(originalRequestId) : undefined;
  const created = createRequestRecord(
    {
      item: {
        payee: record.payee,
        amount: formatBaseUnits(record.amountPerPayment, token.decimals),
        invoiceCurrency: token.id,
        paymentCurrency: token.id,
      },
      token,
      expectedAmount: BigInt(record.amountPerPayment),
    },
    {
      accountId: record.accountId,
      now,
      securePaymentToken: null,
      // A later period is created through whatever created the first one.
      clientId: original?.clientId ?? null,
      origin: original?.origin ?? null,
      recurringPaymentId: record.id,
      flow: "outgoing",
    },
  );
  const request: RequestRecord = original
    ? {
        ...created,
        originalRequestId: original.requestId,
        originalRequestPaymentReference: original.paymentReference,
      }
    : created;
  await storeNewRequest(tx, request, { recurringPaymentId: record.id }, now.toISOString());
  if (original) await appendRequestRecurring(tx, request, original, now);
  return { request, originalRequestId: original?.requestId ?? request.requestId };
}

/** The due date after a successful execution: one period later, when the period is known. */
function nextDate(record: RecurringPaymentRecord): string | null {
  if (!record.periodSeconds || !record.nextPaymentDate) return record.nextPaymentDate;
  return new Date(Date.parse(record.nextPaymentDate) + record.periodSeconds * 1000).toISOString();
}

function refusal(record: RecurringPaymentRecord): Error | undefined {
  if (record.status === "active") return undefined;
  const hint =
    record.status === "paused"
      ? "unpause it first with PATCH /v2/payouts/recurring/{id}"
      : "it has no next payment";
  return invalidState(
    `Recurring payment ${record.id} is ${record.status}, not active: ${hint} (${record.processedPayments} of ${record.totalPayments} payments executed).`,
  );
}

/**
 * Sandbox: executes an active recurring payment's next payment as the service's scheduler would.
 * `success` pays that period's request (payment.confirmed) and counts the payment, completing the
 * schedule after the last; `failure` records a failed payment (payment.failed) and pauses the
 * recurring payment, whose next successful execution then pays the same request. One transaction.
 */
export async function executeSandboxRecurringPayment(
  ctx: DomainContext,
  { principal, path: { id }, body }: OperationInput<"executeSandboxRecurringPayment">,
): Promise<Schemas["SandboxRecurringPaymentExecution"]> {
  const failed = body.outcome === "failure";
  if (!failed && body.subStatus !== undefined) {
    throw validationFailed([{ path: "/body/subStatus", message: "is only allowed for a failure outcome" }]);
  }
  return ctx.store.withTransaction(async (tx) => {
    const record = await loadOwnRecurringPayment(tx, principal, id);
    const refused = refusal(record);
    if (refused) throw refused;
    const token = requireCurrency(record.currency, `recurring payment ${id}`);
    const now = ctx.clock.now();
    const { request, originalRequestId } = await periodRequest(tx, record, token, now);
    const payment: PaymentToRecord = {
      outcome: failed ? "failed" : "paid",
      amount: failed ? "0" : remainingAmount(request).toString(),
      txHash: (body.txHash as `0x${string}` | undefined) ?? newTxHash(),
      subStatus: failed ? (body.subStatus ?? "insufficient_funds") : null,
      recordedAt: now.toISOString(),
      // The service executes from the payer's wallet, which signs itself.
      ...(failed ? {} : { payer: record.payer, payerEoaAddress: record.payer }),
    };
    const processedPayments = record.processedPayments + (failed ? 0 : 1);
    const status: RecurringPaymentRecord["status"] = failed
      ? "paused"
      : processedPayments >= record.totalPayments
        ? "completed"
        : "active";
    const updated: RecurringPaymentRecord = {
      ...record,
      status,
      processedPayments,
      currentRequestId: failed ? request.requestId : null,
      originalRequestId,
      nextPaymentDate: status === "completed" ? null : failed ? record.nextPaymentDate : nextDate(record),
      updatedAt: now.toISOString(),
    };
    // Stored first: the payment's webhook reports the recurring payment's counters after it.
    await tx.recurringPayments.put(updated);
    const paid = await recordPayment(tx, request, payment, now);
    if (status !== record.status) {
      await appendStatusChange(tx, { of: "recurring_payment", id, from: record.status, to: status }, now);
    }
    return {
      outcome: body.outcome,
      recurringPayment: toSandboxRecurringPayment(updated),
      request: await toSandboxRequest(tx, paid, now),
    };
  });
}
