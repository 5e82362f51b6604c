import type { RecurringPaymentRecord } from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import { requireOwnRecord } from "./own-records.ts";
import type { Principal } from "./principal.ts";

/** One of the caller's recurring payments; another account's reads as unknown. */
export function loadOwnRecurringPayment(
  store: StoreOperations,
  principal: Principal,
  id: string,
): Promise<RecurringPaymentRecord> {
  return requireOwnRecord(
    store.recurringPayments.get(id),
    principal,
    `No recurring payment has the id ${id}.`,
  );
}
