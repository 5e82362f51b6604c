import { notFound } from "../../problems.ts";
import type { PayerRecord, PaymentDetailRecord } from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
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

/** The payer of the caller's account registered under `clientUserId`; 404 when there is none. */
export async function requirePayer(
  store: StoreOperations,
  accountId: string,
  clientUserId: string,
): Promise<PayerRecord> {
  const payer = await store.payers.get({ accountId, clientUserId });
  if (!payer)
    throw notFound(
      `No payer is registered under clientUserId '${clientUserId}'; register it with POST /v2/payer first.`,
    );
  return payer;
}

/** A payment detail of one payer of one account, by its id; undefined when there is none of theirs. */
export async function findPaymentDetail(
  store: StoreOperations,
  accountId: string,
  clientUserId: string,
  id: string,
): Promise<PaymentDetailRecord | undefined> {
  const detail = await store.paymentDetails.get(id);
  return detail?.accountId === accountId && detail.clientUserId === clientUserId ? detail : undefined;
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
