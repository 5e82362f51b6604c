import type { DomainContext } from "../shared/context.ts";
import type { OperationInput, SuccessBodyOf } from "../shared/operation-types.ts";
import { loadOwnSecurePayment } from "../shared/own-records.ts";
import { callerClientId } from "../shared/principal.ts";
import { appendUserEvent } from "../shared/secure-payment-events.ts";

/**
 * Takes a payer's step on the page of one of the caller's links, whatever the link's status, and
 * queues its `secure_payment.user_event` webhook. The link itself does not change. The operation
 * takes a client ID only (the spec's security), which the webhook names.
 */
export async function recordSecurePaymentUserEvent(
  ctx: DomainContext,
  { principal, path: { token }, body }: OperationInput<"recordSecurePaymentUserEvent">,
): Promise<SuccessBodyOf<"recordSecurePaymentUserEvent">> {
  const now = ctx.clock.now();
  const clientId = callerClientId(principal);
  if (clientId === null) throw new Error("recordSecurePaymentUserEvent was called without a client ID");
  const report = {
    userEvent: body.userEvent,
    clientId,
    occurredAt: body.occurredAt ?? now.toISOString(),
    properties: body.properties ?? {},
  };
  await ctx.store.withTransaction(async (tx) => {
    await appendUserEvent(tx, await loadOwnSecurePayment(tx, principal, token), report, now);
  });
  return { received: true };
}
