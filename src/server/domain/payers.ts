import type { OperationInput } from "../operations/operation-types.ts";
import { notFound } from "../problems.ts";
import type { PayerRecord, PaymentDetailRecord } from "../store/records.ts";
import type { DomainContext } from "./context.ts";
import { newUuid } from "./ids.ts";
import type { Schemas } from "./wire-types.ts";

function toComplianceStatus(ctx: DomainContext, payer: PayerRecord): Schemas["PayerComplianceStatus"] {
  const origin = ctx.publicOrigin();
  return {
    agreementUrl: `${origin}/pages/agreement/${payer.userId}`,
    kycUrl: `${origin}/pages/kyc/${payer.userId}`,
    userId: payer.userId,
    status: { agreementStatus: payer.agreementStatus, kycStatus: payer.kycStatus },
  };
}

/**
 * Registers a payer of the caller's account. Registering the same `clientUserId` again answers
 * the existing registration, unchanged. Only what the sandbox needs is kept, no personal data.
 */
export async function registerPayer(
  ctx: DomainContext,
  { principal, body }: OperationInput<"registerPayer">,
): Promise<Schemas["PayerComplianceStatus"]> {
  return ctx.store.withTransaction(async (tx) => {
    const existing = await tx.getPayer(principal.accountId, body.clientUserId);
    if (existing) return toComplianceStatus(ctx, existing);
    const now = ctx.clock.now().toISOString();
    const payer: PayerRecord = {
      accountId: principal.accountId,
      clientUserId: body.clientUserId,
      userId: newUuid(),
      beneficiaryType: body.beneficiaryType,
      kycStatus: "not_started",
      agreementStatus: "not_started",
      createdAt: now,
    };
    await tx.putPayer(payer);
    await tx.appendEvent({
      type: "payer.registered",
      occurredAt: now,
      data: { clientUserId: payer.clientUserId, userId: payer.userId },
    });
    return toComplianceStatus(ctx, payer);
  });
}

/** Stores a bank account for a registered payer of the caller's account; 404 for an unknown payer. */
export async function createPaymentDetails(
  ctx: DomainContext,
  { principal, path: { clientUserId }, body }: OperationInput<"createPaymentDetails">,
): Promise<Schemas["PaymentDetailResponse"]> {
  return ctx.store.withTransaction(async (tx) => {
    const payer = await tx.getPayer(principal.accountId, clientUserId);
    if (!payer)
      throw notFound(
        `No payer is registered under clientUserId '${clientUserId}'; register it with POST /v2/payer first.`,
      );
    const record: PaymentDetailRecord = {
      id: newUuid(),
      accountId: principal.accountId,
      clientUserId,
      bankName: body.bankName,
      accountName: body.accountName,
      currency: body.currency.toUpperCase(),
      beneficiaryType: body.beneficiaryType,
      status: "pending",
      createdAt: ctx.clock.now().toISOString(),
    };
    await tx.putPaymentDetail(record);
    const { id, bankName, accountName, currency, beneficiaryType } = record;
    return { payment_detail: { id, clientUserId, bankName, accountName, currency, beneficiaryType } };
  });
}
