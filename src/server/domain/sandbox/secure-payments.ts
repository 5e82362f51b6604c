import { invalidState } from "../../problems.ts";
import type { SecurePaymentRecord } from "../../store/records.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadOwnSecurePayment } from "../shared/own-records.ts";
import { effectiveStatus } from "../shared/secure-payment-status.ts";
import { appendStatusChange } from "../shared/status-changes.ts";
import type { Schemas } from "../shared/wire-types.ts";

export function toSandboxSecurePayment(
  record: SecurePaymentRecord,
  now: Date,
): Schemas["SandboxSecurePayment"] {
  return {
    token: record.token,
    status: effectiveStatus(record, now),
    requestIds: record.requestIds,
    network: record.network,
    createdAt: record.createdAt,
    expiresAt: record.expiresAt,
  };
}

/** Sandbox: ends a pending (and unexpired) secure payment as invalidated or compliance_failed. */
export async function updateSandboxSecurePayment(
  ctx: DomainContext,
  { principal, path: { token }, body: { status } }: OperationInput<"updateSandboxSecurePayment">,
): Promise<Schemas["SandboxSecurePayment"]> {
  return ctx.store.withTransaction(async (tx) => {
    const record = await loadOwnSecurePayment(tx, principal, token);
    const now = ctx.clock.now();
    const current = effectiveStatus(record, now);
    if (current !== "pending") {
      throw invalidState(
        `Secure payment ${token} is ${current}; only a pending secure payment can become ${status}.`,
      );
    }
    const updated: SecurePaymentRecord = { ...record, status, updatedAt: now.toISOString() };
    await tx.securePayments.put(updated);
    await appendStatusChange(tx, { of: "secure_payment", token, from: record.status, to: status }, now);
    return toSandboxSecurePayment(updated, now);
  });
}
