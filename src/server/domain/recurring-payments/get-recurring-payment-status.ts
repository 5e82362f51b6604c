import type { RecurringPaymentRecord, RequestRecord } from "../../store/records.ts";
import { formatBaseUnits } from "../shared/amounts.ts";
import type { DomainContext } from "../shared/context.ts";
import { requireCurrency } from "../shared/currencies.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadOwnRecurringPayment } from "../shared/own-records.ts";
import type { Schemas } from "../shared/wire-types.ts";

/** How many executions of the current period failed in a row, and the last one's reason. */
function failuresOf(record: RecurringPaymentRecord, periods: RequestRecord[]) {
  if (record.status !== "paused") return {};
  const current = periods.find((request) => request.requestId === record.currentRequestId);
  const payments = current?.payments ?? [];
  let failureCount = 0;
  for (let index = payments.length - 1; index >= 0 && payments[index]?.outcome === "failed"; index--) {
    failureCount++;
  }
  const last = payments.at(-1);
  if (failureCount === 0 || !last) return {};
  return { failureCount, failureReason: last.subStatus ?? "failed" };
}

/**
 * Where one of the caller's recurring payments stands: its progress, the request of each period
 * and each payment executed, read from the requests its executions created.
 */
export async function getRecurringPaymentStatus(
  ctx: DomainContext,
  { principal, path: { id } }: OperationInput<"getRecurringPaymentStatus">,
): Promise<Schemas["RecurringPaymentProgress"]> {
  const record = await loadOwnRecurringPayment(ctx.store, principal, id);
  const { decimals } = requireCurrency(record.currency, `recurring payment ${id}`);
  const { items: periods } = await ctx.store.requests.find("recurringPayment", id, undefined, {
    accountId: principal.accountId,
  });
  const payments = periods.flatMap((request) =>
    request.payments
      .filter((payment) => payment.outcome !== "failed")
      .map((payment) => ({
        requestId: request.requestId,
        amount: formatBaseUnits(payment.amount, decimals),
        timestamp: payment.recordedAt,
        txHash: payment.txHash,
      })),
  );
  return {
    id,
    status: record.status,
    processedPayments: record.processedPayments,
    totalPayments: record.totalPayments,
    lastPaymentDate: payments.at(-1)?.timestamp ?? null,
    nextPaymentDate: record.status === "active" ? record.nextPaymentDate : null,
    requests: periods.map((request) => ({
      requestId: request.requestId,
      paymentReference: request.paymentReference,
    })),
    payments,
    ...failuresOf(record, periods),
  };
}
