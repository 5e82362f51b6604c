import type { PayerRecord, PaymentDetailRecord } from "../../store/records.ts";
import type { DomainContext } from "./context.ts";
import { isCompliant } from "./payer-events.ts";
import type { Schemas } from "./wire-types.ts";

/** The sandbox's stand-ins for the agreement page and the verification provider's page. */
export function complianceLinks(ctx: DomainContext, payer: PayerRecord) {
  const origin = ctx.publicOrigin();
  return {
    agreementUrl: `${origin}/pages/agreement/${payer.userId}`,
    kycUrl: `${origin}/pages/kyc/${payer.userId}`,
  };
}

/** A payer's compliance as `GET /v2/payer/{clientUserId}` answers it: every member at the top level. */
export function toPayerCompliance(ctx: DomainContext, payer: PayerRecord): Schemas["PayerCompliance"] {
  return {
    userId: payer.userId,
    agreementStatus: payer.agreementStatus,
    kycStatus: payer.kycStatus,
    isCompliant: isCompliant(payer),
    ...complianceLinks(ctx, payer),
  };
}

/** A stored bank account as listed, with its status and rail. */
export function toStoredPaymentDetail(
  payer: PayerRecord,
  record: PaymentDetailRecord,
): Schemas["StoredPaymentDetail"] {
  return {
    id: record.id,
    clientUserId: record.clientUserId,
    userId: payer.userId,
    bankName: record.bankName,
    accountName: record.accountName,
    currency: record.currency,
    beneficiaryType: record.beneficiaryType,
    status: record.status,
    rails: record.rails,
  };
}
