import { invalidState } from "../../problems.ts";
import type { PayerRecord, PaymentDetailRecord } from "../../store/records.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadOwnPayer, loadOwnPaymentDetail } from "../shared/own-records.ts";
import { appendComplianceChange, appendPaymentDetailStatus } from "../shared/payer-events.ts";
import { toPayerCompliance, toStoredPaymentDetail } from "../shared/payers.ts";
import type { Schemas } from "../shared/wire-types.ts";

/** Verification decisions that no later decision changes. */
const finalKycStatuses: ReadonlySet<PayerRecord["kycStatus"]> = new Set([
  "approved",
  "completed",
  "rejected",
  "failed",
]);

/** Agreement outcomes that no later decision changes. */
const finalAgreementStatuses: ReadonlySet<PayerRecord["agreementStatus"]> = new Set([
  "completed",
  "signed",
  "rejected",
  "failed",
]);

/** Why a payer's decided status cannot become the one asked for; undefined when it can. */
function decidedRefusal(clientUserId: string, payer: PayerRecord, body: Schemas["SandboxPayerUpdate"]) {
  const { kycStatus, agreementStatus } = body;
  if (kycStatus !== undefined && kycStatus !== payer.kycStatus && finalKycStatuses.has(payer.kycStatus)) {
    return invalidState(
      `Payer '${clientUserId}' has kycStatus ${payer.kycStatus}, which is final; only initiated, pending or retry_required can change.`,
    );
  }
  if (
    agreementStatus !== undefined &&
    agreementStatus !== payer.agreementStatus &&
    finalAgreementStatuses.has(payer.agreementStatus)
  ) {
    return invalidState(
      `Payer '${clientUserId}' has agreementStatus ${payer.agreementStatus}, which is final; only a pending agreement can change.`,
    );
  }
  return undefined;
}

/**
 * Sandbox: the verification provider's and the agreement page's decisions on a payer, while they
 * are still open. A change sends `compliance.updated` once, with both statuses after it; a call
 * that changes nothing sends nothing. One transaction.
 */
export async function updateSandboxPayer(
  ctx: DomainContext,
  { principal, path: { clientUserId }, body }: OperationInput<"updateSandboxPayer">,
): Promise<Schemas["PayerCompliance"]> {
  return ctx.store.withTransaction(async (tx) => {
    const payer = await loadOwnPayer(tx, principal, clientUserId);
    const refused = decidedRefusal(clientUserId, payer, body);
    if (refused) throw refused;
    const now = ctx.clock.now();
    const changed: PayerRecord = {
      ...payer,
      kycStatus: body.kycStatus ?? payer.kycStatus,
      agreementStatus: body.agreementStatus ?? payer.agreementStatus,
    };
    if (changed.kycStatus !== payer.kycStatus || changed.agreementStatus !== payer.agreementStatus) {
      const stored = { ...changed, updatedAt: now.toISOString() };
      await tx.payers.put(stored);
      await appendComplianceChange(tx, stored, now);
    }
    return toPayerCompliance(ctx, changed);
  });
}

/**
 * Sandbox: sets the status of a payer's payment details as the bank-side check would, and sends
 * `payment_detail.updated` when it changes. One transaction.
 */
export async function updateSandboxPaymentDetail(
  ctx: DomainContext,
  { principal, path: { clientUserId, paymentDetailsId }, body }: OperationInput<"updateSandboxPaymentDetail">,
): Promise<Schemas["StoredPaymentDetail"]> {
  return ctx.store.withTransaction(async (tx) => {
    const payer = await loadOwnPayer(tx, principal, clientUserId);
    const detail = await loadOwnPaymentDetail(tx, principal, clientUserId, paymentDetailsId);
    const now = ctx.clock.now();
    const updated: PaymentDetailRecord = { ...detail, status: body.status, updatedAt: now.toISOString() };
    if (updated.status !== detail.status) {
      await tx.paymentDetails.put(updated);
      await appendPaymentDetailStatus(tx, updated, now, body.rejectionMessage);
    }
    return toStoredPaymentDetail(payer, updated);
  });
}
