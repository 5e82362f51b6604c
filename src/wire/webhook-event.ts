import type { components } from "../../generated/schema.d.ts";
import { isRecord } from "./is-record.ts";
import { InvalidValueError } from "./payreq-error.ts";

type Schemas = components["schemas"];

/** The body of a `payment.confirmed` delivery, as received. */
export type PaymentConfirmedEvent = Schemas["PaymentConfirmedEvent"];

/** The body of a `payment.partial` delivery, as received. */
export type PaymentPartialEvent = Schemas["PaymentPartialEvent"];

/** The body of a `payment.confirmed.client_id` delivery (a request created with a client ID), as received. */
export type PaymentConfirmedClientIdEvent = Schemas["PaymentConfirmedClientIdEvent"];

/** The body of a `payment.partial.client_id` delivery (a request created with a client ID), as received. */
export type PaymentPartialClientIdEvent = Schemas["PaymentPartialClientIdEvent"];

/** The body of a `payment.confirmed.checkout` delivery (a request of a secure payment link), as received. */
export type PaymentConfirmedCheckoutEvent = Schemas["PaymentConfirmedCheckoutEvent"];

/** The body of a `payment.partial.checkout` delivery (a request of a secure payment link), as received. */
export type PaymentPartialCheckoutEvent = Schemas["PaymentPartialCheckoutEvent"];

/** The body of a `payment.failed` delivery, as received. */
export type PaymentFailedEvent = Schemas["PaymentFailedEvent"];

/** The body of a `payment.processing` delivery (a crypto-to-fiat step), as received. */
export type PaymentProcessingEvent = Schemas["PaymentProcessingEvent"];

/** The body of a `payment.refunded` delivery, as received. */
export type PaymentRefundedEvent = Schemas["PaymentRefundedEvent"];

/** The body of a `request.recurring` delivery (the next request of a recurring request), as received. */
export type RequestRecurringEvent = Schemas["RequestRecurringEvent"];

/** The body of a `compliance.updated` delivery (a payer's KYC or agreement), as received. */
export type ComplianceUpdatedEvent = Schemas["ComplianceUpdatedEvent"];

/** The body of a `payment_detail.updated` delivery (a payer's bank details checked), as received. */
export type PaymentDetailUpdatedEvent = Schemas["PaymentDetailUpdatedEvent"];

/** The body of a `secure_payment.user_event` delivery (a payer's step on a link's page), as received. */
export type SecurePaymentUserEvent = Schemas["SecurePaymentUserEvent"];

/** The body of a `client_id.linked` delivery (a recipient completed a link intent), as received. */
export type ClientIdLinkedEvent = Schemas["ClientIdLinkedEvent"];

/** The body of a `secure_payment.access_rejected` delivery (a wallet refused on a link), as received. */
export type SecurePaymentAccessRejectedEvent = Schemas["SecurePaymentAccessRejectedEvent"];

/** The body of a `kyt.screening.completed` delivery (a payer's wallet screened), as received. */
export type KytScreeningCompletedEvent = Schemas["KytScreeningCompletedEvent"];

/** The payloads that are about one request, named by `requestId` or `requestID`. */
type RequestPayload =
  | PaymentConfirmedEvent
  | PaymentPartialEvent
  | PaymentConfirmedClientIdEvent
  | PaymentPartialClientIdEvent
  | PaymentConfirmedCheckoutEvent
  | PaymentPartialCheckoutEvent
  | PaymentFailedEvent
  | PaymentProcessingEvent
  | PaymentRefundedEvent
  | RequestRecurringEvent
  | SecurePaymentAccessRejectedEvent;

/** The payloads about a payer, which name no request. */
type PayerPayload = ComplianceUpdatedEvent | PaymentDetailUpdatedEvent;

/**
 * The payloads about an orchestrator's link or a payer's screening, which name no request:
 * `requestId` reads as undefined on them, as on a payer's events.
 */
type LinkPayload = (ClientIdLinkedEvent | KytScreeningCompletedEvent) & { requestId?: undefined };

/** Any webhook payload the spec describes, as received. */
export type WebhookPayload = RequestPayload | PayerPayload | SecurePaymentUserEvent | LinkPayload;

/** A payload with its request named once, by a required `requestId`. */
type WithRequestId<Payload> = Payload extends unknown
  ? Flatten<Omit<Payload, "requestId" | "requestID"> & { requestId: Schemas["RequestId"] }>
  : never;

type Flatten<Type> = { [Key in keyof Type]: Type[Key] };

/**
 * A webhook event after `normaliseWebhookEvent`: narrow it with `event`. Events about a request
 * name it by `requestId`; `compliance.updated` and `payment_detail.updated` are about a payer;
 * `secure_payment.user_event` names a secure payment by its token.
 */
export type WebhookEvent =
  | WithRequestId<RequestPayload>
  | PayerPayload
  | SecurePaymentUserEvent
  | LinkPayload;

/** The name of a webhook event, as the spec lists them. */
export type WebhookEventName = Schemas["WebhookEventName"];

const listedEventNames = [
  "payment.confirmed",
  "payment.partial",
  "payment.failed",
  "payment.processing",
  "payment.refunded",
  "request.recurring",
  "compliance.updated",
  "payment_detail.updated",
  "secure_payment.user_event",
  "client_id.linked",
  "kyt.screening.completed",
  "payment.confirmed.client_id",
  "payment.partial.client_id",
  "payment.confirmed.checkout",
  "payment.partial.checkout",
  "secure_payment.access_rejected",
] as const satisfies readonly WebhookEventName[];

/**
 * The scoped duplicates of the payment events, each with the event it duplicates: sent in
 * addition to it for a request created with a client ID (`.client_id`) or through a secure
 * payment link (`.checkout`).
 */
export const scopedPaymentEvents = {
  "payment.confirmed.client_id": "payment.confirmed",
  "payment.partial.client_id": "payment.partial",
  "payment.confirmed.checkout": "payment.confirmed",
  "payment.partial.checkout": "payment.partial",
} as const satisfies Partial<Record<WebhookEventName, WebhookEventName>>;

export type ScopedPaymentEventName = keyof typeof scopedPaymentEvents;

/** The event a scoped duplicate duplicates (`payment.confirmed` for `payment.confirmed.checkout`); any other, itself. */
export function coreEventOf<Name extends string>(event: Name): Name | WebhookEventName {
  return (scopedPaymentEvents as Record<string, WebhookEventName>)[event] ?? event;
}

/**
 * The events that need no request identifier: those about a payer, and a payer's step on a
 * secure payment page (named by its link's token, with the link's `requestIds`).
 */
const requestlessEventNames: readonly WebhookEventName[] = [
  "compliance.updated",
  "payment_detail.updated",
  "secure_payment.user_event",
  "client_id.linked",
  "kyt.screening.completed",
];

type UnlistedEventName = Exclude<WebhookEventName, (typeof listedEventNames)[number]>;

/**
 * Every webhook event the spec names. Its type turns to `never`, which fails to compile here, when
 * the spec adds an event the list above lacks.
 */
export const webhookEventNames: [UnlistedEventName] extends [never] ? typeof listedEventNames : never =
  listedEventNames;

/** Whether `name` is one of the webhook events the spec names. */
export function isWebhookEventName(name: unknown): name is WebhookEventName {
  return (webhookEventNames as readonly unknown[]).includes(name);
}

/**
 * Reads a parsed webhook body (after its signature was verified) into one shape: the request is
 * named by `requestId`, whichever spelling the payload used (`requestId`, `requestID` or both).
 * Other members are kept as received. Throws `InvalidValueError` naming the field when `event` is
 * not one of `webhookEventNames`, when the two spellings differ, or when an event about a request
 * has neither (`compliance.updated`, `payment_detail.updated` and `secure_payment.user_event`
 * need none).
 */
export function normaliseWebhookEvent(payload: WebhookPayload | unknown): WebhookEvent {
  if (!isRecord(payload)) throw new InvalidValueError("webhook payload", "a JSON object", payload);
  const { requestId, requestID, ...members } = payload;
  if (!isWebhookEventName(members.event)) {
    throw new InvalidValueError("event", `one of ${webhookEventNames.join(", ")}`, members.event);
  }
  for (const [field, value] of [
    ["requestId", requestId],
    ["requestID", requestID],
  ] as const) {
    if (value !== undefined && (typeof value !== "string" || value === "")) {
      throw new InvalidValueError(field, "a request id string", value);
    }
  }
  if (typeof requestId === "string" && typeof requestID === "string" && requestId !== requestID) {
    throw new InvalidValueError("requestID", `the same value as requestId (${requestId})`, requestID);
  }
  const id = requestId ?? requestID;
  if (requestlessEventNames.includes(members.event)) {
    return (typeof id === "string" ? { ...members, requestId: id } : members) as WebhookEvent;
  }
  if (typeof id !== "string") {
    throw new InvalidValueError("requestId", "requestId or requestID to name the request", undefined);
  }
  return { ...members, requestId: id } as WebhookEvent;
}
