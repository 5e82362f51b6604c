import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { InvalidValueError, normaliseWebhookEvent } from "../../src/index.ts";
import { referenceFolder, referenceMissingReason } from "../support/published-examples.ts";
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

  it("reads the five other events, those about a payer without a request id", () => {
    const examples = [
      "WebhookPaymentProcessing",
      "WebhookPaymentRefunded",
      "WebhookRequestRecurring",
      "WebhookComplianceUpdated",
      "WebhookPaymentDetailUpdated",
    ].map((name) => specExample(name) as Record<string, unknown>);
    const events = examples.map((example) => normaliseWebhookEvent(example));
    expect(events.map((event) => [event.event, event.requestId])).toEqual([
      ["payment.processing", "01a7c3e98f2b6d4051e8c9b7a3f61d2e48b05c97e1f3a6d28b4c7e90f15a3d6b2c"],
      ["payment.refunded", "015feceb66ffc86f38d952786c6d696c79c2dbc239dd4e91b46729d73a27fb57e9"],
      ["request.recurring", "01d4735e3a265e16eee03f59718b9b5d03019c07d8b6c51f90da3a666eec13ab35"],
      ["compliance.updated", undefined],
      ["payment_detail.updated", undefined],
    ]);
    const [, , recurring, compliance, detail] = events;
    if (recurring?.event !== "request.recurring" || compliance?.event !== "compliance.updated")
      throw new Error("order");
    expect(recurring.originalRequestId).toBe(
      "016b86b273ff34fce19d6b804eff5a3f5747ada4eaa22f1d49c01e52ddb7875b4b",
    );
    expect([compliance.clientUserId, compliance.isCompliant]).toEqual(["cust-20931", true]);
    expect(detail).toEqual(examples[4]);
  });

  it.skipIf(referenceMissingReason)(
    `reads every payload the service publishes as a webhook sample${referenceMissingReason ? ` (skipped: ${referenceMissingReason})` : ""}`,
    () => {
      const folder = path.join(referenceFolder, "webhook-fixtures");
      const samples = readdirSync(folder).filter((file) => file.endsWith(".json"));
      expect(samples).toHaveLength(13);
      for (const file of samples) {
        const payload = JSON.parse(readFileSync(path.join(folder, file), "utf8")) as Record<string, unknown>;
        const event = normaliseWebhookEvent(payload);
        expect(event.event, file).toBe(payload.event);
      }
    },
  );

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
      { event: "balance.updated", requestId },
      'Invalid event: expected one of payment.confirmed, payment.partial, payment.failed, payment.processing, payment.refunded, request.recurring, compliance.updated, payment_detail.updated, secure_payment.user_event, client_id.linked, kyt.screening.completed, payment.confirmed.client_id, payment.partial.client_id, payment.confirmed.checkout, payment.partial.checkout, secure_payment.access_rejected, got "balance.updated".',
    ],
  ])("rejects %s with a message naming the field", (_name, payload, message) => {
    const read = () => normaliseWebhookEvent(payload);
    expect(read).toThrow(InvalidValueError);
    expect(read).toThrow(message);
  });
});
