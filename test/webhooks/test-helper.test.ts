import { decodeTime } from "ulid";
import { describe, expect, it } from "vitest";
import {
  createSignedWebhookRequest,
  InvalidValueError,
  normaliseWebhookEvent,
  signWebhook,
  verifyWebhookSignature,
} from "../../src/index.ts";
import { createSchemaValidator, describeErrors } from "../../src/spec/schema-validator.ts";
import { resolveNode } from "../../src/spec/spec-document.ts";
import { payloadExample, secret, spec } from "./fixtures.ts";

const validator = createSchemaValidator(spec);

function headerSchema(name: string): unknown {
  const node = resolveNode(spec, { $ref: `#/components/parameters/${name}` }) as { schema: unknown };
  return node.schema;
}

describe("createSignedWebhookRequest", () => {
  const payload = payloadExample("WebhookPaymentConfirmed");

  it("signs the exact body it returns, with the service's headers", () => {
    const request = createSignedWebhookRequest({ secret, payload, deliveryId: "01KX45HY43KWJRP1XPA7Z3DJ8F" });
    expect(request.body).toBe(JSON.stringify(payload));
    expect(request.headers).toEqual({
      "content-type": "application/json",
      "x-request-network-signature": signWebhook(secret, request.body),
      "x-request-network-delivery": "01KX45HY43KWJRP1XPA7Z3DJ8F",
      "x-request-network-retry-count": "0",
    });
    expect(request.deliveryId).toBe("01KX45HY43KWJRP1XPA7Z3DJ8F");
    const header = request.headers["x-request-network-signature"];
    expect(verifyWebhookSignature({ secret, rawBody: request.body, signature: header })).toBe(true);
    expect(normaliseWebhookEvent(JSON.parse(request.body)).requestId).toBe(payload.requestId);
  });

  it("gives each delivery a fresh ULID by default", () => {
    const before = Date.now();
    const first = createSignedWebhookRequest({ secret, payload });
    const second = createSignedWebhookRequest({ secret, payload });
    expect(first.deliveryId).not.toBe(second.deliveryId);
    expect(first.headers["x-request-network-delivery"]).toBe(first.deliveryId);
    expect(decodeTime(first.deliveryId)).toBeGreaterThanOrEqual(before);
  });

  it("produces headers that match the spec's header schemas", () => {
    const { headers } = createSignedWebhookRequest({ secret, payload, retryCount: 3, test: true });
    for (const [parameter, name] of [
      ["WebhookSignatureHeader", "x-request-network-signature"],
      ["WebhookDeliveryHeader", "x-request-network-delivery"],
      ["WebhookTestHeader", "x-request-network-test"],
    ] as const) {
      const errors = validator.errorsFor(headerSchema(parameter), headers[name]);
      expect(describeErrors(errors)).toBe("");
    }
    const retryErrors = validator.errorsFor(
      headerSchema("WebhookRetryCountHeader"),
      Number(headers["x-request-network-retry-count"]),
    );
    expect(describeErrors(retryErrors)).toBe("");
    expect(headers["x-request-network-retry-count"]).toBe("3");
    expect(headers["x-request-network-test"]).toBe("true");
  });

  it("sends a string payload byte for byte", () => {
    const body = '{ "event": "payment.failed",\n  "requestId": "01aa" }';
    const request = createSignedWebhookRequest({ secret, payload: body });
    expect(request.body).toBe(body);
    expect(request.headers["x-request-network-signature"]).toBe(signWebhook(secret, body));
  });

  it.each<[string, Record<string, unknown>, string]>([
    ["retryCount", { retryCount: 4 }, "Invalid retryCount: expected a whole number from 0 to 3, got 4."],
    [
      "deliveryId",
      { deliveryId: "" },
      'Invalid deliveryId: expected a non-empty string (the service sends a ULID), got "".',
    ],
    ["payload", { payload: 7 }, "Invalid payload: expected an event object or a JSON string, got 7."],
    [
      "secret",
      { secret: "" },
      "Invalid secret: expected a non-empty string or Uint8Array, got an empty string.",
    ],
  ])("refuses a bad %s, naming it", (_field, override, message) => {
    const call = () => createSignedWebhookRequest({ secret, payload, ...override } as never);
    expect(call).toThrow(InvalidValueError);
    expect(call).toThrow(message);
  });
});
