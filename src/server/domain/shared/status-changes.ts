import type { RecurringPaymentStatus, SecurePaymentStatus } from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";

type StatusChange =
  | { of: "secure_payment"; token: string; from: SecurePaymentStatus; to: SecurePaymentStatus }
  | { of: "recurring_payment"; id: string; from: RecurringPaymentStatus; to: RecurringPaymentStatus };

/** Appends the `<record>.status_changed` event of a status change to the caller's transaction. */
export async function appendStatusChange(
  tx: StoreOperations,
  change: StatusChange,
  now: Date,
): Promise<void> {
  const { of, ...data } = change;
  await tx.appendEvent({ type: `${of}.status_changed`, occurredAt: now.toISOString(), data });
}
