import { buildAllowanceReset } from "../../../chain/index.ts";
import { invalidState } from "../../problems.ts";
import type { RecurringPaymentRecord } from "../../store/records.ts";
import type { DomainContext } from "../shared/context.ts";
import { requireCurrency } from "../shared/currencies.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadOwnRecurringPayment } from "../shared/own-records.ts";
import { appendStatusChange } from "../shared/status-changes.ts";
import { toWireTransaction } from "../shared/transaction-wire.ts";
import type { Schemas } from "../shared/wire-types.ts";

type RecurringPaymentAction = Schemas["RecurringPaymentAction"];

function refuse(record: RecurringPaymentRecord, action: RecurringPaymentAction): Error | undefined {
  const { id, status } = record;
  if (action === "cancel" && status === "cancelled") {
    return invalidState(`Recurring payment ${id} is already cancelled; there is nothing left to cancel.`);
  }
  if (action === "cancel" && status === "completed") {
    return invalidState(
      `Recurring payment ${id} is completed (${record.processedPayments} of ${record.totalPayments} payments executed) and cannot be cancelled.`,
    );
  }
  if (action === "unpause" && status !== "paused") {
    return invalidState(
      `Recurring payment ${id} is ${status}, not paused; unpause applies only to a paused recurring payment.`,
    );
  }
  return undefined;
}

/**
 * Applies `cancel` (active or paused -> cancelled, with the `approve(spender, 0)` that withdraws
 * the allowance) or `unpause` (paused -> active). Any other combination answers 400 invalid-state.
 */
export async function updateRecurringPayment(
  ctx: DomainContext,
  { principal, path: { id }, body: { action } }: OperationInput<"updateRecurringPayment">,
): Promise<Schemas["RecurringPayment"]> {
  return ctx.store.withTransaction(async (tx) => {
    const record = await loadOwnRecurringPayment(tx, principal, id);
    const refusal = refuse(record, action);
    if (refusal) throw refusal;
    const now = ctx.clock.now();
    const status = action === "cancel" ? "cancelled" : "active";
    const nextPaymentDate =
      action === "unpause"
        ? new Date(
            Math.max(now.getTime(), Date.parse(record.nextPaymentDate ?? now.toISOString())),
          ).toISOString()
        : record.nextPaymentDate;
    const updated: RecurringPaymentRecord = {
      ...record,
      status,
      nextPaymentDate,
      updatedAt: now.toISOString(),
    };
    await tx.recurringPayments.put(updated);
    await appendStatusChange(tx, { of: "recurring_payment", id, from: record.status, to: status }, now);
    const { processedPayments, totalPayments } = record;
    if (action === "unpause") {
      return { id, status, metadata: { processedPayments, totalPayments, nextPaymentDate } };
    }
    const token = requireCurrency(record.currency, `recurring payment ${id}`);
    const remainingPayments = totalPayments - processedPayments;
    return {
      id,
      status,
      transactions: [
        toWireTransaction(buildAllowanceReset({ token: token.address, spender: record.spender }), "hex"),
      ],
      metadata: {
        remainingPayments,
        remainingAmount: (BigInt(record.amountPerPayment) * BigInt(remainingPayments)).toString(),
        processedPayments,
        totalPayments,
      },
    };
  });
}
