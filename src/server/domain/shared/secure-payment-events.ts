import type { SecurePaymentRecord } from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import { appendWebhookEvent } from "./webhook-events.ts";
import type { Schemas } from "./wire-types.ts";

/** A payer's step on a link's page, as the page reported it. */
export interface UserEventReport {
  userEvent: Schemas["SecurePaymentUserEventName"];
  clientId: string;
  /** When the step happened, by the payer's clock. */
  occurredAt: string;
  properties: Schemas["SecurePaymentUserEventProperties"];
}

/** The body of `secure_payment.user_event`: the step, the link it was taken on, and when it arrived. */
export function buildUserEventPayload(
  link: Pick<SecurePaymentRecord, "token" | "requestIds">,
  report: UserEventReport,
  now: Date,
): Schemas["SecurePaymentUserEvent"] {
  const [requestId] = link.requestIds;
  return {
    event: "secure_payment.user_event",
    userEvent: report.userEvent,
    securePaymentToken: link.token,
    ...(requestId === undefined ? {} : { requestId }),
    requestIds: [...link.requestIds],
    clientId: report.clientId,
    occurredAt: report.occurredAt,
    timestamp: now.toISOString(),
    properties: report.properties,
  };
}

/**
 * Appends `secure_payment.user_event` to the caller's transaction, for the link's account: the
 * outbox keeps the report, and the webhook worker sends it to the endpoints that take the event.
 */
export async function appendUserEvent(
  tx: StoreOperations,
  link: SecurePaymentRecord,
  report: UserEventReport,
  now: Date,
): Promise<void> {
  await appendWebhookEvent(tx, {
    event: "secure_payment.user_event",
    accountId: link.accountId,
    requestId: link.requestIds[0] ?? null,
    occurredAt: now.toISOString(),
    payload: buildUserEventPayload(link, report, now),
  });
}
