import { ulid } from "ulid";
import { InvalidValueError } from "../wire/payreq-error.ts";
import type { WebhookPayload } from "../wire/webhook-event.ts";
import { signedDeliveryHeaders, type WebhookSecret } from "./sign.ts";

export interface SignedWebhookRequestOptions {
  /** The signing secret the receiver under test uses. */
  secret: WebhookSecret;
  /** The event to send: serialised with JSON.stringify, or sent as is when a string. */
  payload: WebhookPayload | Record<string, unknown> | string;
  /** `x-request-network-delivery`; a fresh ULID unless given (reuse one to test dedupe). */
  deliveryId?: string;
  /** `x-request-network-retry-count`, 0 to 3; 0 unless given. */
  retryCount?: number;
  /** Adds `x-request-network-test: true`, as on the service's test deliveries. */
  test?: boolean;
}

export interface SignedWebhookRequest {
  /** The body to send, byte for byte the one signed. */
  body: string;
  /** `content-type` and the four `x-request-network-*` headers. */
  headers: Record<string, string>;
  /** The delivery id in the headers, for assertions. */
  deliveryId: string;
}

/**
 * Builds a delivery as the service sends it, for an integrator's own tests: pass `body` and
 * `headers` to fetch or supertest and POST them to the receiver.
 */
export function createSignedWebhookRequest(options: SignedWebhookRequestOptions): SignedWebhookRequest {
  const { secret, payload, deliveryId = ulid(), retryCount = 0, test = false } = options;
  if (typeof payload !== "string" && (typeof payload !== "object" || payload === null)) {
    throw new InvalidValueError("payload", "an event object or a JSON string", payload);
  }
  if (typeof deliveryId !== "string" || deliveryId === "") {
    throw new InvalidValueError("deliveryId", "a non-empty string (the service sends a ULID)", deliveryId);
  }
  if (!Number.isInteger(retryCount) || retryCount < 0 || retryCount > 3) {
    throw new InvalidValueError("retryCount", "a whole number from 0 to 3", retryCount);
  }
  const body = typeof payload === "string" ? payload : JSON.stringify(payload);
  const headers = signedDeliveryHeaders({ secret, body, deliveryId, retryCount, test });
  return { body, headers, deliveryId };
}
