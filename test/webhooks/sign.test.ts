import { describe, expect, it } from "vitest";
import { InvalidValueError, signWebhook } from "../../src/index.ts";
import { knownAnswer, secret } from "./fixtures.ts";

describe("signWebhook", () => {
  it("gives the published known answer", () => {
    expect(signWebhook(knownAnswer.secret, knownAnswer.body)).toBe(knownAnswer.signature);
  });

  it("matches RFC 4231 test case 2 (HMAC-SHA-256)", () => {
    expect(signWebhook("Jefe", "what do ya want for nothing?")).toBe(
      "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
    );
  });

  it("signs a string as its UTF-8 bytes, and bytes as they are", () => {
    const body = '{"amount":"1.00","note":"café ✓"}';
    const fromString = signWebhook(secret, body);
    expect(signWebhook(secret, Buffer.from(body, "utf8"))).toBe(fromString);
    expect(signWebhook(secret, new TextEncoder().encode(body))).toBe(fromString);
    expect(signWebhook(secret, Buffer.from(body, "latin1"))).not.toBe(fromString);
  });

  it("accepts the secret as bytes", () => {
    expect(signWebhook(Buffer.from(knownAnswer.secret), knownAnswer.body)).toBe(knownAnswer.signature);
  });

  it("matches RFC 4231 test case 1, a binary key", () => {
    expect(signWebhook(new Uint8Array(20).fill(0x0b), "Hi There")).toBe(
      "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
    );
  });

  it("signs an empty body", () => {
    // Computed independently: createHmac("sha256", secret).update("").digest("hex").
    expect(signWebhook(secret, "")).toBe("d629005c37c873c38f4c14bf8af805859af5b9d394e75dde5b7bb8725448157c");
    expect(signWebhook(secret, new Uint8Array(0))).toBe(signWebhook(secret, ""));
  });

  it("refuses an empty secret without quoting it", () => {
    expect(() => signWebhook("", "body")).toThrow(InvalidValueError);
    expect(() => signWebhook("", "body")).toThrow(
      "Invalid secret: expected a non-empty string or Uint8Array, got an empty string.",
    );
  });

  it("refuses a parsed body, naming rawBody", () => {
    const call = () => signWebhook(secret, { event: "payment.confirmed" } as never);
    expect(call).toThrow(
      'Invalid rawBody: expected the body as a string or Uint8Array (its exact bytes), got {"event":"payment.confirmed"}.',
    );
  });
});
