import { invalidState } from "../../problems.ts";
import type { SecurePaymentRecord } from "../../store/records.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadOwnSecurePayment } from "../shared/own-records.ts";
import { appendWebhookEvent } from "../shared/webhook-events.ts";
import type { Schemas } from "../shared/wire-types.ts";

/** How long the service sends no second `secure_payment.access_rejected` for one wallet on one link. */
export const accessRejectionQuietMs = 10 * 60 * 1000;

/**
 * Sandbox: a wallet refused on a link. Sends `secure_payment.access_rejected` to the webhooks of
 * the link's client ID, unless one was sent for the same wallet and link less than 10 minutes
 * ago on the account's sandbox clock: then nothing is sent, and the answer says so.
 */
export async function rejectSandboxSecurePaymentAccess(
  ctx: DomainContext,
  { principal, path: { token }, body }: OperationInput<"rejectSandboxSecurePaymentAccess">,
): Promise<Schemas["SandboxAccessRejectionResult"]> {
  const wallet = body.wallet.toLowerCase();
  return ctx.store.withTransaction(async (tx) => {
    const link = await loadOwnSecurePayment(tx, principal, token);
    const requestId = link.requestIds[0] as string;
    const clientId = (await tx.requests.get(requestId))?.clientId;
    if (!clientId) {
      throw invalidState(
        `Secure payment ${token} was created with the API key: secure_payment.access_rejected goes to the webhooks of the client ID a link was created with. Create the link with x-client-id.`,
      );
    }
    const now = ctx.clock.now();
    const lastSent = link.accessRejectionsSentAt?.[wallet];
    if (lastSent !== undefined && now.getTime() - Date.parse(lastSent) < accessRejectionQuietMs) {
      const suppressedUntil = new Date(Date.parse(lastSent) + accessRejectionQuietMs).toISOString();
      return { sent: false, token, requestId, wallet, suppressedUntil };
    }
    const timestamp = now.toISOString();
    await appendWebhookEvent(tx, {
      event: "secure_payment.access_rejected",
      accountId: link.accountId,
      requestId,
      occurredAt: timestamp,
      payload: {
        event: "secure_payment.access_rejected",
        requestId,
        clientId,
        attemptedPayerWalletAddress: wallet,
        timestamp,
      },
    });
    const updated: SecurePaymentRecord = {
      ...link,
      accessRejectionsSentAt: { ...link.accessRejectionsSentAt, [wallet]: timestamp },
      updatedAt: timestamp,
    };
    await tx.securePayments.put(updated);
    const suppressedUntil = new Date(now.getTime() + accessRejectionQuietMs).toISOString();
    return { sent: true, token, requestId, wallet, suppressedUntil };
  });
}
