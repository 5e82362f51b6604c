import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSchemaValidator, describeErrors } from "../../../src/spec/schema-validator.ts";
import { isObject, loadBundledSpec, resolveNode } from "../../../src/spec/spec-document.ts";
import type { TestServer } from "../helpers.ts";
import { payee, payer } from "../helpers.ts";
import { createRequest, recordPayment, registerEndpoint, startWebhookServer } from "./harness.ts";
import { type ReceivedWebhook, type Receiver, startReceiver } from "./receiver.ts";

const spec = loadBundledSpec();
const validator = createSchemaValidator(spec);

/** The spec's schemas for a webhook event: its body and its header parameters. */
function webhookSchemas(event: string): {
  body: unknown;
  headers: Map<string, { schema: unknown; required: boolean }>;
} {
  const webhooks = spec.webhooks as Record<string, unknown>;
  const operation = (resolveNode(spec, webhooks[event]) as { post: Record<string, unknown> }).post;
  const requestBody = resolveNode(spec, operation.requestBody) as {
    content: Record<string, { schema: unknown }>;
  };
  const headers = new Map<string, { schema: unknown; required: boolean }>();
  for (const raw of operation.parameters as unknown[]) {
    const parameter = resolveNode(spec, raw) as {
      name: string;
      in: string;
      schema: unknown;
      required?: boolean;
    };
    if (parameter.in === "header") {
      headers.set(parameter.name, { schema: parameter.schema, required: parameter.required === true });
    }
  }
  return { body: requestBody.content["application/json"]?.schema, headers };
}

/** Every way the received webhook breaks the spec: its body, then its headers. */
function specViolations(webhook: ReceivedWebhook): string[] {
  const payload = JSON.parse(webhook.body.toString("utf8")) as { event: string };
  const { body, headers } = webhookSchemas(payload.event);
  const violations: string[] = [];
  const bodyErrors = validator.errorsFor(body, payload);
  if (bodyErrors.length > 0) violations.push(`body: ${describeErrors(bodyErrors)}`);
  for (const [name, { schema, required }] of headers) {
    const raw = webhook.headers[name];
    if (raw === undefined) {
      if (required) violations.push(`${name}: is missing`);
      continue;
    }
    const value = isObject(schema) && schema.type === "integer" ? Number(raw) : raw;
    const errors = validator.errorsFor(schema, value);
    if (errors.length > 0) violations.push(`${name}: ${describeErrors(errors)}`);
  }
  return violations;
}

let server: TestServer;
let hook: Receiver;
let endpointId: string;
const txHash = `0x${"ab".repeat(32)}`;

beforeAll(async () => {
  hook = await startReceiver();
  server = await startWebhookServer();
  endpointId = (await registerEndpoint(server, hook.url)).id;
});
afterAll(async () => {
  await server.close();
  await hook.close();
});

const lastPayload = () => JSON.parse(hook.received.at(-1)?.body.toString("utf8") as string);

describe("webhook payloads", () => {
  it("payment.partial and payment.confirmed carry the service's fields, and validate against the spec", async () => {
    const requestId = await createRequest(server);
    const { paymentReference } = (await server.call("GET", `/sandbox/requests/${requestId}`)).body;
    await recordPayment(server, requestId, { outcome: "partial", amount: "25.5", txHash });
    const common = {
      requestId,
      requestID: requestId,
      paymentReference,
      expectedAmount: "125",
      timestamp: "2026-04-12T10:00:00.000Z",
      txHash,
      network: "base",
      currency: "USD",
      paymentCurrency: "USDC",
      isCryptoToFiat: false,
      subStatus: "",
      paymentProcessor: "request-network",
      fees: [],
    };
    expect(lastPayload()).toEqual({
      event: "payment.partial",
      amount: "25.5",
      totalAmountPaid: "25.5",
      ...common,
    });
    expect(specViolations(hook.received.at(-1) as ReceivedWebhook)).toEqual([]);

    server.clock.set("2026-04-12T10:05:00.000Z");
    await recordPayment(server, requestId, { outcome: "paid", txHash });
    expect(lastPayload()).toEqual({
      event: "payment.confirmed",
      amount: "99.5",
      totalAmountPaid: "125",
      ...common,
      timestamp: "2026-04-12T10:05:00.000Z",
    });
    expect(specViolations(hook.received.at(-1) as ReceivedWebhook)).toEqual([]);
  });

  it("payment.failed carries the reason, and validates against the spec", async () => {
    const requestId = await createRequest(server);
    const { paymentReference } = (await server.call("GET", `/sandbox/requests/${requestId}`)).body;
    await recordPayment(server, requestId, { outcome: "failed" });
    expect(lastPayload()).toEqual({
      event: "payment.failed",
      requestId,
      requestID: requestId,
      paymentReference,
      subStatus: "insufficient_funds",
      paymentProcessor: "request-network",
    });
    expect(specViolations(hook.received.at(-1) as ReceivedWebhook)).toEqual([]);
  });

  it("recurring executions and test events of every kind validate against the spec", async () => {
    const created = await server.call("POST", "/sandbox/recurring-payments", {
      body: {
        payer,
        payee,
        currency: "USDC-base",
        amount: "50",
        totalPayments: 2,
        spender: "0xdc8781ffab20fef4ab0472c3d6e50073b540ed9e",
      },
    });
    const id = created.body.id;
    await server.call("POST", `/sandbox/recurring-payments/${id}/executions`, {
      body: { outcome: "failure" },
    });
    await server.call("PATCH", `/v2/payouts/recurring/${id}`, { body: { action: "unpause" } });
    await server.call("POST", `/sandbox/recurring-payments/${id}/executions`, {
      body: { outcome: "success" },
    });
    for (const event of ["payment.confirmed", "payment.partial", "payment.failed"]) {
      await server.call("POST", `/sandbox/webhooks/endpoints/${endpointId}/test`, { body: { event } });
    }
    await server.server.webhooks.settled();

    const recent = hook.received.slice(-5);
    expect(
      recent.map((webhook) => [
        JSON.parse(webhook.body.toString("utf8")).event,
        webhook.headers["x-request-network-test"],
      ]),
    ).toEqual([
      ["payment.failed", undefined],
      ["payment.confirmed", undefined],
      ["payment.confirmed", "true"],
      ["payment.partial", "true"],
      ["payment.failed", "true"],
    ]);
    for (const webhook of recent) expect(specViolations(webhook)).toEqual([]);
  });

  it("the spec check catches a payload that breaks it", () => {
    const broken: ReceivedWebhook = {
      headers: { "x-request-network-signature": "ABC", "x-request-network-retry-count": "4" },
      body: Buffer.from(JSON.stringify({ event: "payment.failed", requestId: "01xyz" })),
    };
    expect(specViolations(broken).map((violation) => violation.split(":")[0])).toEqual([
      "body",
      "x-request-network-signature",
      "x-request-network-delivery",
      "x-request-network-retry-count",
    ]);
  });
});
