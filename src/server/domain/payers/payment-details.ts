import { newUuid } from "../../ids.ts";
import type { PaymentDetailRecord } from "../../store/records.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadOwnPayer, loadOwnPaymentDetail } from "../shared/own-records.ts";
import { appendPaymentDetailStatus } from "../shared/payer-events.ts";
import { toStoredPaymentDetail } from "../shared/payers.ts";
import type { Principal } from "../shared/principal.ts";
import type { Schemas } from "../shared/wire-types.ts";

/**
 * Keeps a bank account of a registered payer, for both paths of its creation. The sandbox's
 * off-ramp provider approves it at once, which sends `payment_detail.updated`; the account
 * identifiers are never kept.
 */
export async function storePaymentDetails(
  ctx: DomainContext,
  principal: Principal,
  clientUserId: string,
  body: Schemas["CreatePaymentDetailsRequest"],
): Promise<Schemas["PaymentDetailResponse"]> {
  return ctx.store.withTransaction(async (tx) => {
    await loadOwnPayer(tx, principal, clientUserId);
    const now = ctx.clock.now();
    const record: PaymentDetailRecord = {
      id: newUuid(),
      accountId: principal.accountId,
      clientUserId,
      bankName: body.bankName,
      accountName: body.accountName,
      // Codes come in any case (the service's own app sends "usd"); kept upper case.
      currency: body.currency.toUpperCase(),
      beneficiaryType: body.beneficiaryType,
      rails: body.rails ?? "local",
      status: "approved",
      createdAt: now.toISOString(),
    };
    await tx.paymentDetails.put(record);
    await appendPaymentDetailStatus(tx, record, now);
    const { id, bankName, accountName, currency, beneficiaryType } = record;
    return { payment_detail: { id, clientUserId, bankName, accountName, currency, beneficiaryType } };
  });
}

/** Stores a bank account for a registered payer of the caller's account; 404 for an unknown payer. */
export async function createPaymentDetails(
  ctx: DomainContext,
  { principal, path: { clientUserId }, body }: OperationInput<"createPaymentDetails">,
): Promise<Schemas["PaymentDetailResponse"]> {
  return storePaymentDetails(ctx, principal, clientUserId, body);
}

/** The v2 path of payment-details creation: the same state as `createPaymentDetails`. */
export async function createPaymentDetailsV2(
  ctx: DomainContext,
  { principal, path: { clientUserId }, body }: OperationInput<"createPaymentDetailsV2">,
): Promise<Schemas["PaymentDetailResponse"]> {
  return storePaymentDetails(ctx, principal, clientUserId, body);
}

/**
 * The bank accounts of a payer of the caller's account, oldest first; only the one named by
 * `paymentDetailsId` when given (404 when the payer has no such account).
 */
export async function listPaymentDetails(
  ctx: DomainContext,
  { principal, path: { clientUserId }, query }: OperationInput<"listPaymentDetails">,
): Promise<Schemas["PaymentDetailList"]> {
  const payer = await loadOwnPayer(ctx.store, principal, clientUserId);
  const records =
    query.paymentDetailsId === undefined
      ? (await ctx.store.paymentDetails.find("payer", { accountId: principal.accountId, clientUserId })).items
      : [await loadOwnPaymentDetail(ctx.store, principal, clientUserId, query.paymentDetailsId)];
  return {
    paymentDetails: records.map((record) => toStoredPaymentDetail(payer, record)),
  };
}

/** `GET /v1/payer/{clientUserId}/payment-details`: the list `GET /v2/...` answers, of the same records. */
export function listPaymentDetailsV1(
  ctx: DomainContext,
  input: OperationInput<"listPaymentDetailsV1">,
): Promise<Schemas["PaymentDetailList"]> {
  return listPaymentDetails(ctx, { ...input });
}
