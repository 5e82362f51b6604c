import { newUuid } from "../../ids.ts";
import { invalidState } from "../../problems.ts";
import type { PayerRecord } from "../../store/records.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadOwnPayer } from "../shared/own-records.ts";
import { appendComplianceChange } from "../shared/payer-events.ts";
import { complianceLinks, toPayerCompliance } from "../shared/payers.ts";
import type { Schemas } from "../shared/wire-types.ts";

/**
 * The registration answer: `status` in the contract's two values (a step is `completed` or
 * `not_started`), and the finer statuses at the top level, where clients read them.
 */
function toComplianceStatus(ctx: DomainContext, payer: PayerRecord): Schemas["PayerComplianceStatus"] {
  const { agreementStatus, kycStatus, isCompliant } = toPayerCompliance(ctx, payer);
  return {
    ...complianceLinks(ctx, payer),
    userId: payer.userId,
    status: {
      agreementStatus: agreementStatus === "completed" ? "completed" : "not_started",
      kycStatus: kycStatus === "approved" ? "completed" : "not_started",
    },
    agreementStatus,
    kycStatus,
    isCompliant,
  };
}

/**
 * Registers a payer of the caller's account, issuing the agreement (`pending`) and the identity
 * verification (`initiated`) at once. Registering the same `clientUserId` again answers the
 * existing registration, unchanged. Only what the sandbox needs is kept, no personal data.
 */
export async function registerPayer(
  ctx: DomainContext,
  { principal, body }: OperationInput<"registerPayer">,
): Promise<Schemas["PayerComplianceStatus"]> {
  return ctx.store.withTransaction(async (tx) => {
    const existing = await tx.payers.get({ accountId: principal.accountId, clientUserId: body.clientUserId });
    if (existing) return toComplianceStatus(ctx, existing);
    const now = ctx.clock.now();
    const payer: PayerRecord = {
      accountId: principal.accountId,
      clientUserId: body.clientUserId,
      userId: newUuid(),
      beneficiaryType: body.beneficiaryType,
      kycStatus: "initiated",
      agreementStatus: "pending",
      createdAt: now.toISOString(),
    };
    await tx.payers.put(payer);
    await tx.appendEvent({
      type: "payer.registered",
      occurredAt: now.toISOString(),
      data: { clientUserId: payer.clientUserId, userId: payer.userId },
    });
    await appendComplianceChange(tx, payer, now);
    return toComplianceStatus(ctx, payer);
  });
}

/** Where a payer of the caller's account stands; 404 (read by clients as "not started") for an unknown one. */
export async function getPayerComplianceStatus(
  ctx: DomainContext,
  { principal, path: { clientUserId } }: OperationInput<"getPayerComplianceStatus">,
): Promise<Schemas["PayerCompliance"]> {
  return toPayerCompliance(ctx, await loadOwnPayer(ctx.store, principal, clientUserId));
}

/**
 * Records the payer's acceptance of the agreement (`completed`, once). `false` records nothing
 * while the agreement is open, and cannot withdraw a completed one (400 invalid-state).
 */
export async function updatePayerComplianceStatus(
  ctx: DomainContext,
  { principal, path: { clientUserId }, body }: OperationInput<"updatePayerComplianceStatus">,
): Promise<Schemas["PayerAgreementUpdated"]> {
  return ctx.store.withTransaction(async (tx) => {
    const payer = await loadOwnPayer(tx, principal, clientUserId);
    const completed = payer.agreementStatus === "completed";
    if (!body.agreementCompleted) {
      if (completed) {
        throw invalidState(
          `Payer '${clientUserId}' has already completed the agreement; agreementCompleted false cannot withdraw it.`,
        );
      }
      return { success: true };
    }
    if (completed) return { success: true };
    const changed: PayerRecord = { ...payer, agreementStatus: "completed" };
    await tx.payers.put(changed);
    await appendComplianceChange(tx, changed, ctx.clock.now());
    return { success: true };
  });
}

/** `POST /v1/payer`: the same registration as `POST /v2/payer`, on the same payers. */
export function registerPayerV1(
  ctx: DomainContext,
  input: OperationInput<"registerPayerV1">,
): Promise<Schemas["PayerComplianceStatus"]> {
  return registerPayer(ctx, { ...input });
}

/** `GET /v1/payer/{clientUserId}`: the answer of `GET /v2/payer/{clientUserId}`. */
export function getPayerComplianceStatusV1(
  ctx: DomainContext,
  input: OperationInput<"getPayerComplianceStatusV1">,
): Promise<Schemas["PayerCompliance"]> {
  return getPayerComplianceStatus(ctx, { ...input });
}

/** `PATCH /v1/payer/{clientUserId}`: the agreement update of `PATCH /v2/payer/{clientUserId}`. */
export function updatePayerComplianceStatusV1(
  ctx: DomainContext,
  input: OperationInput<"updatePayerComplianceStatusV1">,
): Promise<Schemas["PayerAgreementUpdated"]> {
  return updatePayerComplianceStatus(ctx, { ...input });
}
