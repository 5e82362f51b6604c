import type { OperationInput } from "../operations/operation-types.ts";
import { invalidState, notFound } from "../problems.ts";
import type { PayerRecord } from "../store/records.ts";
import type { StoreOperations } from "../store/store.ts";
import type { DomainContext } from "./shared/context.ts";
import { newUuid } from "./shared/ids.ts";
import { appendComplianceChange, isCompliant } from "./shared/payer-events.ts";
import type { Schemas } from "./shared/wire-types.ts";

/** The sandbox's stand-ins for the agreement page and the verification provider's page. */
function complianceLinks(ctx: DomainContext, payer: PayerRecord) {
  const origin = ctx.publicOrigin();
  return {
    agreementUrl: `${origin}/pages/agreement/${payer.userId}`,
    kycUrl: `${origin}/pages/kyc/${payer.userId}`,
  };
}

function toComplianceStatus(ctx: DomainContext, payer: PayerRecord): Schemas["PayerComplianceStatus"] {
  return {
    ...complianceLinks(ctx, payer),
    userId: payer.userId,
    status: { agreementStatus: payer.agreementStatus, kycStatus: payer.kycStatus },
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
  const payer = await store.getPayer(accountId, clientUserId);
  if (!payer)
    throw notFound(
      `No payer is registered under clientUserId '${clientUserId}'; register it with POST /v2/payer first.`,
    );
  return payer;
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
    const existing = await tx.getPayer(principal.accountId, body.clientUserId);
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
    await tx.putPayer(payer);
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
  return toPayerCompliance(ctx, await requirePayer(ctx.store, principal.accountId, clientUserId));
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
    const payer = await requirePayer(tx, principal.accountId, clientUserId);
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
    await tx.putPayer(changed);
    await appendComplianceChange(tx, changed, ctx.clock.now());
    return { success: true };
  });
}
