import { describe, expect, it } from "vitest";
import { InvalidValueError, normaliseWebhookEvent } from "../../src/index.ts";
import { specExample } from "./fetch-stub.ts";

describe("normaliseWebhookEvent", () => {
  it("keeps one requestId when the payload carries both spellings", () => {
    const payload = specExample("WebhookPaymentConfirmed") as Record<string, unknown>;
    const event = normaliseWebhookEvent(payload);
    const { requestID: _dropped, ...expected } = payload;
    expect(event).toEqual(expected);
    expect(event).not.toHaveProperty("requestID");
    expect(event.requestId).toBe("015feceb66ffc86f38d952786c6d696c79c2dbc239dd4e91b46729d73a27fb57e9");
    expect(payload.requestID).toBe(event.requestId);
  });

  it("reads the requestID-only spelling into requestId", () => {
    const event = normaliseWebhookEvent(specExample("WebhookPaymentConfirmedOneSpelling"));
    expect(event.event).toBe("payment.confirmed");
    expect(event.requestId).toBe("01ef2d127de37b942baad06145e54b0c619a1f22327b2ebbcfbec78f5564afe39d");
    expect(event).not.toHaveProperty("requestID");
  });

  it("reads a requestId-only payload as is", () => {
    const { requestID: _dropped, ...payload } = specExample("WebhookPaymentPartial") as Record<
      string,
      unknown
    >;
    const event = normaliseWebhookEvent(payload);
    expect(event).toEqual(payload);
  });

  it("keeps the members of each event, narrowed by event name", () => {
    const partial = normaliseWebhookEvent(specExample("WebhookPaymentPartial"));
    const failed = normaliseWebhookEvent(specExample("WebhookPaymentFailed"));
    if (partial.event !== "payment.partial" || failed.event !== "payment.failed")
      throw new Error("wrong event");
    expect([partial.requestId, partial.totalAmountPaid, partial.expectedAmount]).toEqual([
      "01d4735e3a265e16eee03f59718b9b5d03019c07d8b6c51f90da3a666eec13ab35",
      "50.00",
      "120.00",
    ]);
    expect([failed.requestId, failed.subStatus, failed.paymentReference]).toEqual([
      "014e07408562bedb8b60ce05c1decfe3ad16b72230967de01f640b7e4729b49fce",
      "insufficient_funds",
      "0x95ebc4821cc7c04f",
    ]);
  });

  it("does not change the payload it is given", () => {
    const payload = specExample("WebhookPaymentFailed");
    const copy = structuredClone(payload);
    normaliseWebhookEvent(payload);
    expect(payload).toEqual(copy);
  });

  const requestId = "015feceb66ffc86f38d952786c6d696c79c2dbc239dd4e91b46729d73a27fb57e9";
  const otherId = "01ef2d127de37b942baad06145e54b0c619a1f22327b2ebbcfbec78f5564afe39d";

  it.each<[string, unknown, string]>([
    [
      "a non-object",
      "payment.confirmed",
      'Invalid webhook payload: expected a JSON object, got "payment.confirmed".',
    ],
    [
      "both spellings with different values",
      { event: "payment.confirmed", requestId, requestID: otherId },
      `Invalid requestID: expected the same value as requestId (${requestId}), got "${otherId}".`,
    ],
    [
      "no request id",
      { event: "payment.failed", paymentReference: "0x95ebc4821cc7c04f" },
      "Invalid requestId: expected requestId or requestID to name the request, got undefined.",
    ],
    [
      "a request id that is not a string",
      { event: "payment.failed", requestID: 42 },
      "Invalid requestID: expected a request id string, got 42.",
    ],
    [
      "an event this spec does not describe",
      { event: "payment.refunded", requestId },
      'Invalid event: expected one of payment.confirmed, payment.partial, payment.failed, got "payment.refunded".',
    ],
  ])("rejects %s with a message naming the field", (_name, payload, message) => {
    const read = () => normaliseWebhookEvent(payload);
    expect(read).toThrow(InvalidValueError);
    expect(read).toThrow(message);
  });
});
