import { InvalidValueError } from "../wire/payreq-error.ts";
import { webhookHeaders } from "./headers.ts";
import { hmacSha256 } from "./node-crypto.ts";

/** The endpoint's signing secret: a string (used as UTF-8) or its bytes. */
export type WebhookSecret = string | Uint8Array;

/** A request body exactly as it travels: a string (signed as UTF-8) or the bytes (a Buffer is one). */
export type RawBody = string | Uint8Array;

/** Whether a secret has the accepted form and is not empty. */
export function isUsableSecret(secret: unknown): secret is WebhookSecret {
  return (typeof secret === "string" || secret instanceof Uint8Array) && secret.length > 0;
}

/** Whether a body is raw (a string or bytes), as opposed to parsed JSON or nothing. */
export function isRawBody(body: unknown): body is RawBody {
  return typeof body === "string" || body instanceof Uint8Array;
}

/**
 * The `x-request-network-signature` value for a body: the lowercase hex HMAC-SHA-256 of its bytes,
 * keyed by the secret. Throws `InvalidValueError` when the secret is empty or the body is not raw.
 */
export function signWebhook(secret: WebhookSecret, rawBody: RawBody): string {
  assertUsableSecret(secret);
  if (!isRawBody(rawBody)) {
    throw new InvalidValueError("rawBody", "the body as a string or Uint8Array (its exact bytes)", rawBody);
  }
  return hmacSha256(secret, rawBody).toString("hex");
}

/** Throws `InvalidValueError` for `secret`, describing it without quoting it, unless it is usable. */
export function assertUsableSecret(secret: unknown): asserts secret is WebhookSecret {
  if (!isUsableSecret(secret)) {
    throw new InvalidValueError("secret", "a non-empty string or Uint8Array", undefined, {
      receivedDescription: describeSecret(secret),
    });
  }
}

export interface DeliveryHeaderValues {
  secret: WebhookSecret;
  /** The body exactly as sent. */
  body: RawBody;
  deliveryId: string;
  retryCount: number;
  test: boolean;
}

/** `content-type` and the `x-request-network-*` headers of a delivery, as the service sends them. */
export function signedDeliveryHeaders(values: DeliveryHeaderValues): Record<string, string> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    [webhookHeaders.signature]: signWebhook(values.secret, values.body),
    [webhookHeaders.delivery]: values.deliveryId,
    [webhookHeaders.retryCount]: String(values.retryCount),
  };
  if (values.test) headers[webhookHeaders.test] = "true";
  return headers;
}

/** Says what a secret is without quoting it. */
export function describeSecret(secret: unknown): string {
  if (typeof secret === "string") return secret === "" ? "an empty string" : "a string";
  if (secret instanceof Uint8Array) return secret.length === 0 ? "empty bytes" : "bytes";
  return secret === null ? "null" : typeof secret;
}
