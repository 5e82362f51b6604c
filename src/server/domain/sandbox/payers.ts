import type { OperationInput } from "../../operations/operation-types.ts";
import { invalidState } from "../../problems.ts";
import type { PayerRecord } from "../../store/records.ts";
import type { DomainContext } from "../context.ts";
import { appendComplianceChange } from "../payer-events.ts";
import { requirePayer, toPayerCompliance } from "../payers.ts";
import type { Schemas } from "../wire-types.ts";

/** Verification decisions that no later decision changes. */
const finalKycStatuses: ReadonlySet<PayerRecord["kycStatus"]> = new Set([
  "approved",
  "completed",
  "rejected",
]);

/** Sandbox: the verification provider's decision on a payer's identity, while it is still open. */
export async function updateSandboxPayer(
  ctx: DomainContext,
  { principal, path: { clientUserId }, body: { kycStatus } }: OperationInput<"updateSandboxPayer">,
): Promise<Schemas["PayerCompliance"]> {
  return ctx.store.withTransaction(async (tx) => {
    const payer = await requirePayer(tx, principal.accountId, clientUserId);
    if (finalKycStatuses.has(payer.kycStatus)) {
      throw invalidState(
        `Payer '${clientUserId}' has kycStatus ${payer.kycStatus}, which is final; only initiated, pending or retry_required can change.`,
      );
    }
    const changed: PayerRecord = { ...payer, kycStatus };
    if (changed.kycStatus !== payer.kycStatus) {
      await tx.putPayer(changed);
      await appendComplianceChange(tx, changed, ctx.clock.now());
    }
    return toPayerCompliance(ctx, changed);
  });
}
