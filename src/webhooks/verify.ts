import { webhookHeaders } from "./headers.ts";
import { equalInConstantTime, hmacSha256 } from "./node-crypto.ts";
import { describeSecret, isRawBody, isUsableSecret, type WebhookSecret } from "./sign.ts";

/** Why a signature check failed. */
export type SignatureFailureReason =
  | "missing_secret"
  | "body_not_raw"
  | "missing_signature"
  | "malformed_signature"
  | "signature_mismatch";

export type SignatureCheck = { ok: true } | { ok: false; reason: SignatureFailureReason; message: string };

export interface SignatureInput {
  /** The endpoint's signing secret. */
  secret: WebhookSecret;
  /** The body exactly as received: a string or the bytes. Anything else fails with `body_not_raw`. */
  rawBody: unknown;
  /** The `x-request-network-signature` header as the framework gives it (Node: string or string[]). */
  signature: string | readonly string[] | null | undefined;
}

const signaturePattern = /^[0-9a-f]{64}$/;

/**
 * Checks a delivery's signature and says why it failed. Never throws: every input, however
 * malformed, gives `{ ok: false, reason, message }`. Messages never quote the secret or the
 * expected signature.
 */
export function checkWebhookSignature(input: SignatureInput): SignatureCheck {
  const { secret, rawBody, signature } = input as { secret: unknown; rawBody: unknown; signature: unknown };
  if (!isUsableSecret(secret)) {
    return fail(
      "missing_secret",
      `The signing secret must be a non-empty string or Uint8Array; got ${describeSecret(secret)}.`,
    );
  }
  if (!isRawBody(rawBody)) return fail("body_not_raw", describeBodyNotRaw(rawBody));
  const header = readSignatureHeader(signature);
  if (!header.ok) return header;
  const expected = hmacSha256(secret, rawBody);
  // Both are 32 bytes here: the pattern check guarantees the header decodes completely.
  if (!equalInConstantTime(Buffer.from(header.value, "hex"), expected)) {
    return fail(
      "signature_mismatch",
      `${webhookHeaders.signature} does not match the body: check that the secret is this endpoint's signing secret and that the body is verified exactly as received, not re-serialised.`,
    );
  }
  return { ok: true };
}

/** `true` only when the signature is valid for the body and secret; `false` for anything else. */
export function verifyWebhookSignature(input: SignatureInput): boolean {
  return checkWebhookSignature(input).ok;
}

function readSignatureHeader(
  signature: unknown,
): { ok: true; value: string } | { ok: false; reason: SignatureFailureReason; message: string } {
  if (signature === undefined || signature === null || signature === "") {
    return fail("missing_signature", `The ${webhookHeaders.signature} header is missing.`);
  }
  if (Array.isArray(signature)) {
    return fail(
      "malformed_signature",
      `The ${webhookHeaders.signature} header was sent ${signature.length} times; expected exactly one value.`,
    );
  }
  if (typeof signature !== "string") {
    return fail(
      "malformed_signature",
      `The ${webhookHeaders.signature} header must be a string; got ${typeof signature}.`,
    );
  }
  if (signaturePattern.test(signature)) return { ok: true, value: signature };
  return fail(
    "malformed_signature",
    `The ${webhookHeaders.signature} header ${describeMalformed(signature)}.`,
  );
}

function describeMalformed(signature: string): string {
  const expectation = "expected 64 lowercase hex characters";
  if (/[^\x20-\x7e]/.test(signature)) return `contains non-ASCII or control characters; ${expectation}`;
  if (/^[0-9a-fA-F]+$/.test(signature) && signature.length === 64) {
    return "has uppercase hex digits; expected lowercase (0-9, a-f)";
  }
  if (/[^0-9a-fA-F]/.test(signature)) return `contains characters other than hex digits; ${expectation}`;
  return `is ${signature.length} characters long; ${expectation}`;
}

function describeBodyNotRaw(rawBody: unknown): string {
  const fix =
    "verify the bytes exactly as received: mount the middleware before express.json(), or read the body with express.raw()";
  if (rawBody === undefined || rawBody === null) {
    return `No raw body was given (got ${String(rawBody)}, expected the raw bytes as a string or Buffer): ${fix}.`;
  }
  if (rawBody instanceof ArrayBuffer) {
    return "The body is an ArrayBuffer; pass it as Buffer.from(arrayBuffer) or a Uint8Array view of it.";
  }
  if (typeof rawBody === "object") {
    const kind = Array.isArray(rawBody) ? "an array" : "an object";
    return `The body was parsed before verification (got ${kind}, expected the raw bytes as a string or Buffer): ${fix}.`;
  }
  return `The body must be the raw bytes as a string or Buffer; got a ${typeof rawBody}: ${fix}.`;
}

function fail(
  reason: SignatureFailureReason,
  message: string,
): { ok: false; reason: SignatureFailureReason; message: string } {
  return { ok: false, reason, message };
}
