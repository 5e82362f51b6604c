import type { PayerRecord, PaymentDetailRecord } from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import { appendWebhookEvent } from "./webhook-events.ts";

/** Whether a payer may receive off-ramp payments: the agreement accepted and the identity verified. */
export function isCompliant(payer: Pick<PayerRecord, "kycStatus" | "agreementStatus">): boolean {
  return (
    (payer.agreementStatus === "completed" || payer.agreementStatus === "signed") &&
    (payer.kycStatus === "approved" || payer.kycStatus === "completed")
  );
}

/** The body of `compliance.updated` for a payer's current statuses. */
export function buildComplianceUpdatedPayload(payer: PayerRecord, now: Date): Record<string, unknown> {
  return {
    event: "compliance.updated",
    clientUserId: payer.clientUserId,
    kycStatus: payer.kycStatus,
    agreementStatus: payer.agreementStatus,
    isCompliant: isCompliant(payer),
    timestamp: now.toISOString(),
  };
}

/** The body of `payment_detail.updated` for payment details' current status. */
export function buildPaymentDetailUpdatedPayload(
  detail: PaymentDetailRecord,
  now: Date,
  rejectionMessage?: string,
): Record<string, unknown> {
  return {
    event: "payment_detail.updated",
    paymentDetailsId: detail.id,
    clientUserId: detail.clientUserId,
    status: detail.status,
    ...(rejectionMessage === undefined ? {} : { rejectionMessage }),
    timestamp: now.toISOString(),
  };
}

/**
 * Appends `compliance.updated` to the caller's transaction: the payer's statuses after a change
 * (registration, the agreement accepted, a sandbox decision).
 */
export async function appendComplianceChange(
  tx: StoreOperations,
  payer: PayerRecord,
  now: Date,
): Promise<void> {
  await appendWebhookEvent(tx, {
    event: "compliance.updated",
    accountId: payer.accountId,
    requestId: null,
    occurredAt: now.toISOString(),
    payload: buildComplianceUpdatedPayload(payer, now),
  });
}

/**
 * Appends `payment_detail.updated` to the caller's transaction: a bank account's status after a
 * change (the provider's decision when it is stored, or a sandbox decision).
 */
export async function appendPaymentDetailStatus(
  tx: StoreOperations,
  detail: PaymentDetailRecord,
  now: Date,
  rejectionMessage?: string,
): Promise<void> {
  await appendWebhookEvent(tx, {
    event: "payment_detail.updated",
    accountId: detail.accountId,
    requestId: null,
    occurredAt: now.toISOString(),
    payload: buildPaymentDetailUpdatedPayload(detail, now, rejectionMessage),
  });
}
