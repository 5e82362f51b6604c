import type { components } from "../../generated/schema.d.ts";
import { isRecord } from "./is-record.ts";
import { InvalidValueError } from "./payreq-error.ts";

type Schemas = components["schemas"];

/** The body of a `payment.confirmed` delivery, as received. */
export type PaymentConfirmedEvent = Schemas["PaymentConfirmedEvent"];

/** The body of a `payment.partial` delivery, as received. */
export type PaymentPartialEvent = Schemas["PaymentPartialEvent"];

/** The body of a `payment.failed` delivery, as received. */
export type PaymentFailedEvent = Schemas["PaymentFailedEvent"];

/** Any webhook payload the spec describes, as received. */
export type WebhookPayload = PaymentConfirmedEvent | PaymentPartialEvent | PaymentFailedEvent;

/** A payload with its request named once, by a required `requestId`. */
type WithRequestId<Payload> = Payload extends unknown
  ? Flatten<Omit<Payload, "requestId" | "requestID"> & { requestId: Schemas["RequestId"] }>
  : never;

type Flatten<Type> = { [Key in keyof Type]: Type[Key] };

/** A webhook event after `normaliseWebhookEvent`: narrow it with `event`. */
export type WebhookEvent = WithRequestId<WebhookPayload>;

/** The name of a webhook event, as the spec lists them. */
export type WebhookEventName = Schemas["WebhookEventName"];

const listedEventNames = [
  "payment.confirmed",
  "payment.partial",
  "payment.failed",
] as const satisfies readonly WebhookEventName[];

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
 * not one of `webhookEventNames`, when neither spelling is present, or when the two differ.
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
  if (typeof id !== "string") {
    throw new InvalidValueError("requestId", "requestId or requestID to name the request", undefined);
  }
  return { ...members, requestId: id } as WebhookEvent;
}
