import type { PayerRecord, PaymentDetailRecord } from "../store/records.ts";
import type { StoreOperations } from "../store/store.ts";

/** Whether a payer may receive off-ramp payments: the agreement accepted and the identity verified. */
export function isCompliant(payer: PayerRecord): boolean {
  return (
    payer.agreementStatus === "completed" &&
    (payer.kycStatus === "approved" || payer.kycStatus === "completed")
  );
}

/**
 * Appends `payer.compliance_changed` to the caller's transaction: the payer's statuses after a
 * change, the facts the service's `compliance.updated` webhook carries.
 */
export async function appendComplianceChange(
  tx: StoreOperations,
  payer: PayerRecord,
  now: Date,
): Promise<void> {
  await tx.appendEvent({
    type: "payer.compliance_changed",
    occurredAt: now.toISOString(),
    data: {
      accountId: payer.accountId,
      clientUserId: payer.clientUserId,
      userId: payer.userId,
      agreementStatus: payer.agreementStatus,
      kycStatus: payer.kycStatus,
      isCompliant: isCompliant(payer),
    },
  });
}

/**
 * Appends `payment_detail.status_changed` to the caller's transaction: a bank account's status
 * after a change, the facts the service's `payment_detail.updated` webhook carries.
 */
export async function appendPaymentDetailStatus(
  tx: StoreOperations,
  detail: PaymentDetailRecord,
  now: Date,
): Promise<void> {
  await tx.appendEvent({
    type: "payment_detail.status_changed",
    occurredAt: now.toISOString(),
    data: {
      accountId: detail.accountId,
      clientUserId: detail.clientUserId,
      paymentDetailsId: detail.id,
      status: detail.status,
    },
  });
}
