import type { OperationInput } from "../../operations/operation-types.ts";
import { notFound } from "../../problems.ts";
import type { PayerRecord, PaymentDetailRecord } from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import type { DomainContext } from "../context.ts";
import type { Principal } from "../principal.ts";
import {
  appendWebhookEvent,
  buildComplianceUpdatedPayload,
  buildPaymentDetailUpdatedPayload,
  isCompliant,
} from "../webhook-payloads.ts";
import type { Schemas } from "../wire-types.ts";

function toSandboxPayer(payer: PayerRecord): Schemas["SandboxPayer"] {
  const { clientUserId, userId, kycStatus, agreementStatus } = payer;
  return { clientUserId, userId, kycStatus, agreementStatus, isCompliant: isCompliant(payer) };
}

async function loadOwnPayer(tx: StoreOperations, principal: Principal, clientUserId: string) {
  const payer = await tx.getPayer(principal.accountId, clientUserId);
  if (!payer) throw notFound(`No payer is registered under clientUserId '${clientUserId}'.`);
  return payer;
}

/**
 * Sandbox: sets a payer's KYC and agreement statuses as the verification provider would, and
 * sends `compliance.updated` when one of them changes. One transaction.
 */
export async function updateSandboxPayer(
  ctx: DomainContext,
  { principal, path: { clientUserId }, body }: OperationInput<"updateSandboxPayer">,
): Promise<Schemas["SandboxPayer"]> {
  return ctx.store.withTransaction(async (tx) => {
    const payer = await loadOwnPayer(tx, principal, clientUserId);
    const now = ctx.clock.now();
    const updated: PayerRecord = {
      ...payer,
      kycStatus: body.kycStatus ?? payer.kycStatus,
      agreementStatus: body.agreementStatus ?? payer.agreementStatus,
      updatedAt: now.toISOString(),
    };
    if (updated.kycStatus !== payer.kycStatus || updated.agreementStatus !== payer.agreementStatus) {
      await tx.putPayer(updated);
      await appendWebhookEvent(tx, {
        event: "compliance.updated",
        accountId: payer.accountId,
        requestId: null,
        occurredAt: now.toISOString(),
        payload: buildComplianceUpdatedPayload(updated, now),
      });
    }
    return toSandboxPayer(updated);
  });
}

function toSandboxPaymentDetail(detail: PaymentDetailRecord): Schemas["SandboxPaymentDetail"] {
  const { id, clientUserId, bankName, accountName, currency, beneficiaryType } = detail;
  return {
    id,
    clientUserId,
    bankName,
    accountName,
    currency,
    beneficiaryType,
    status: detail.status ?? "pending",
  };
}

/**
 * Sandbox: sets the status of a payer's payment details as the bank-side check would, and sends
 * `payment_detail.updated` when it changes. One transaction.
 */
export async function updateSandboxPaymentDetail(
  ctx: DomainContext,
  { principal, path: { clientUserId, paymentDetailsId }, body }: OperationInput<"updateSandboxPaymentDetail">,
): Promise<Schemas["SandboxPaymentDetail"]> {
  return ctx.store.withTransaction(async (tx) => {
    await loadOwnPayer(tx, principal, clientUserId);
    const detail = await tx.getPaymentDetail(principal.accountId, clientUserId, paymentDetailsId);
    if (!detail) {
      throw notFound(`Payer '${clientUserId}' has no payment details with id '${paymentDetailsId}'.`);
    }
    const now = ctx.clock.now();
    const updated: PaymentDetailRecord = { ...detail, status: body.status, updatedAt: now.toISOString() };
    if (updated.status !== (detail.status ?? "pending")) {
      await tx.putPaymentDetail(updated);
      await appendWebhookEvent(tx, {
        event: "payment_detail.updated",
        accountId: detail.accountId,
        requestId: null,
        occurredAt: now.toISOString(),
        payload: buildPaymentDetailUpdatedPayload(updated, now, body.rejectionMessage),
      });
    }
    return toSandboxPaymentDetail(updated);
  });
}
