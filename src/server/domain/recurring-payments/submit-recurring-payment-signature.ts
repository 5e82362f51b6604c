import type { Hex } from "viem";
import type { buildSchedulePermit } from "../../../chain/index.ts";
import { invalidField, invalidState } from "../../problems.ts";
import type { RecurringPaymentRecord } from "../../store/records.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadOwnRecurringPayment } from "../shared/own-records.ts";
import { appendStatusChange } from "../shared/status-changes.ts";
import { isSignedBy } from "../shared/typed-data-signatures.ts";
import type { Schemas } from "../shared/wire-types.ts";

/** Why a recurring payment cannot take a signature now, if it cannot. */
function refuseSignature(record: RecurringPaymentRecord, permit: { deadline: number }, now: Date) {
  if (record.status !== "pending") {
    const why =
      record.status === "active" ? "its permit signature was already accepted" : "it takes no signature";
    return invalidState(`Recurring payment ${record.id} is ${record.status}, not pending: ${why}.`);
  }
  if (now.getTime() > permit.deadline * 1000) {
    return invalidState(
      `The permit of recurring payment ${record.id} expired at ${new Date(permit.deadline * 1000).toISOString()}; create the recurring payout again.`,
    );
  }
  return undefined;
}

/**
 * Activates a pending recurring payment once its payer signed the permit it was created with: the
 * signature must recover to the payer over exactly that permit, else 400 naming the field and
 * nothing changes. Its first payment is then due at the permit's `firstExec`.
 */
export async function submitRecurringPaymentSignature(
  ctx: DomainContext,
  { principal, path: { id }, body }: OperationInput<"submitRecurringPaymentSignature">,
): Promise<Schemas["RecurringPaymentActivated"]> {
  const now = ctx.clock.now();
  return ctx.store.withTransaction(async (tx) => {
    const record = await loadOwnRecurringPayment(tx, principal, id);
    if (!record.permit) {
      throw invalidState(
        `Recurring payment ${id} was created through the sandbox API, without a permit to sign.`,
      );
    }
    const permit = JSON.parse(record.permit) as ReturnType<typeof buildSchedulePermit>;
    const refusal = refuseSignature(record, permit.values, now);
    if (refusal) throw refusal;
    if (!(await isSignedBy(record.permit, body.permitSignature as Hex, record.payer))) {
      throw invalidField(
        "/body/permitSignature",
        `is not a signature of the recurring payment permit by the payer ${record.payer}`,
      );
    }
    await tx.recurringPayments.put({
      ...record,
      status: "active",
      nextPaymentDate: new Date(permit.values.firstExec * 1000).toISOString(),
      updatedAt: now.toISOString(),
    });
    await appendStatusChange(tx, { of: "recurring_payment", id, from: "pending", to: "active" }, now);
    return { id, status: "active", message: "Recurring payment activated successfully" };
  });
}
