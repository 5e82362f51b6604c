import { describe, expect, it } from "vitest";
import { checkWebhookSignature, signWebhook, verifyWebhookSignature } from "../../src/index.ts";
import { knownAnswer, payloadExample, secret } from "./fixtures.ts";

const rawBody = JSON.stringify(payloadExample("WebhookPaymentConfirmed"), null, 2);
const signature = signWebhook(secret, rawBody);

describe("verifyWebhookSignature", () => {
  it("accepts the published known answer", () => {
    expect(verifyWebhookSignature({ ...knownAnswer, rawBody: knownAnswer.body })).toBe(true);
  });

  it("accepts a body given as a string, a Buffer or a Uint8Array", () => {
    expect(verifyWebhookSignature({ secret, rawBody, signature })).toBe(true);
    expect(verifyWebhookSignature({ secret, rawBody: Buffer.from(rawBody), signature })).toBe(true);
    expect(verifyWebhookSignature({ secret, rawBody: new TextEncoder().encode(rawBody), signature })).toBe(
      true,
    );
  });

  const falseCases: [string, unknown, unknown][] = [
    ["a missing header", undefined, rawBody],
    ["a null header", null, rawBody],
    ["an empty header", "", rawBody],
    ["one character short", signature.slice(1), rawBody],
    ["one character long", `${signature}0`, rawBody],
    ["a non-hex character", `${signature.slice(0, 63)}g`, rawBody],
    ["hex that Buffer.from would cut short", `${signature.slice(0, 62)}zz`, rawBody],
    ["uppercase hex", signature.toUpperCase(), rawBody],
    ["non-ASCII characters", `${signature.slice(0, 63)}é`, rawBody],
    ["an array-valued header", [signature], rawBody],
    ["two values joined by Node", `${signature}, ${signature}`, rawBody],
    ["a sha256= prefix", `sha256=${signature}`, rawBody],
    ["a number", 42, rawBody],
    ["another secret's signature", signWebhook("another secret", rawBody), rawBody],
    ["a tampered body", signature, rawBody.replace("125.00", "999.00")],
    ["a re-serialised body", signature, JSON.stringify(JSON.parse(rawBody))],
    ["a parsed body", signature, JSON.parse(rawBody)],
    ["no body", signature, undefined],
  ];

  it.each(falseCases)("is false, without throwing, for %s", (_name, header, body) => {
    expect(verifyWebhookSignature({ secret, rawBody: body, signature: header as string })).toBe(false);
  });

  it("is false for an empty secret", () => {
    expect(verifyWebhookSignature({ secret: "", rawBody, signature })).toBe(false);
  });
});

describe("checkWebhookSignature", () => {
  it("says ok for a valid signature", () => {
    expect(checkWebhookSignature({ secret, rawBody, signature })).toEqual({ ok: true });
  });

  it("says the body was parsed before verification when given an object", () => {
    expect(checkWebhookSignature({ secret, rawBody: JSON.parse(rawBody), signature })).toEqual({
      ok: false,
      reason: "body_not_raw",
      message:
        "The body was parsed before verification (got an object, expected the raw bytes as a string or Buffer): verify the bytes exactly as received: mount the middleware before express.json(), or read the body with express.raw().",
    });
  });

  it.each<[string, unknown, unknown, string, string]>([
    [
      "missing",
      undefined,
      rawBody,
      "missing_signature",
      "The x-request-network-signature header is missing.",
    ],
    [
      "repeated",
      [signature, signature],
      rawBody,
      "malformed_signature",
      "The x-request-network-signature header was sent 2 times; expected exactly one value.",
    ],
    [
      "short",
      signature.slice(2),
      rawBody,
      "malformed_signature",
      "The x-request-network-signature header is 62 characters long; expected 64 lowercase hex characters.",
    ],
    [
      "uppercase",
      signature.toUpperCase(),
      rawBody,
      "malformed_signature",
      "The x-request-network-signature header has uppercase hex digits; expected lowercase (0-9, a-f).",
    ],
    [
      "non-hex",
      `${signature.slice(0, 62)}zz`,
      rawBody,
      "malformed_signature",
      "The x-request-network-signature header contains characters other than hex digits; expected 64 lowercase hex characters.",
    ],
    [
      "non-ASCII",
      `${signature.slice(0, 63)}é`,
      rawBody,
      "malformed_signature",
      "The x-request-network-signature header contains non-ASCII or control characters; expected 64 lowercase hex characters.",
    ],
    [
      "mismatched",
      signature,
      `${rawBody}\n`,
      "signature_mismatch",
      "x-request-network-signature does not match the body: check that the secret is this endpoint's signing secret and that the body is verified exactly as received, not re-serialised.",
    ],
    [
      "given no body",
      signature,
      undefined,
      "body_not_raw",
      "No raw body was given (got undefined, expected the raw bytes as a string or Buffer): verify the bytes exactly as received: mount the middleware before express.json(), or read the body with express.raw().",
    ],
    [
      "given an ArrayBuffer",
      signature,
      new ArrayBuffer(4),
      "body_not_raw",
      "The body is an ArrayBuffer; pass it as Buffer.from(arrayBuffer) or a Uint8Array view of it.",
    ],
  ])("explains a %s signature", (_name, header, body, reason, message) => {
    expect(checkWebhookSignature({ secret, rawBody: body, signature: header as string })).toEqual({
      ok: false,
      reason,
      message,
    });
  });

  it("names a missing secret without quoting any secret or signature", () => {
    const check = checkWebhookSignature({ secret: "", rawBody, signature });
    expect(check).toEqual({
      ok: false,
      reason: "missing_secret",
      message: "The signing secret must be a non-empty string or Uint8Array; got an empty string.",
    });
    const mismatch = checkWebhookSignature({ secret, rawBody: "tampered", signature });
    expect(JSON.stringify(mismatch)).not.toContain(secret);
    expect(JSON.stringify(mismatch)).not.toContain(signWebhook(secret, "tampered"));
  });
});
