import type { SecurePaymentRecord, SecurePaymentStatus } from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import { loadRequests } from "./requests.ts";
import { appendStatusChange } from "./status-changes.ts";

/** The status a secure payment has now: a pending one past its expiry reads as expired. */
export function effectiveStatus(record: SecurePaymentRecord, now: Date): SecurePaymentStatus {
  return record.status === "pending" && now.getTime() >= Date.parse(record.expiresAt)
    ? "expired"
    : record.status;
}

/** Marks a secure payment completed once every one of its requests is paid. */
export async function completeIfAllPaid(tx: StoreOperations, token: string, now: Date): Promise<void> {
  const record = await tx.securePayments.get(token);
  if (record?.status !== "pending") return;
  const requests = await loadRequests(tx, record.requestIds);
  if (!requests.every((request) => request.status === "paid")) return;
  await tx.securePayments.put({ ...record, status: "completed", updatedAt: now.toISOString() });
  await appendStatusChange(tx, { of: "secure_payment", token, from: "pending", to: "completed" }, now);
}
