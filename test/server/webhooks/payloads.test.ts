import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleCredentials } from "../../../src/server/index.ts";
import { createSchemaValidator, describeErrors } from "../../../src/spec/schema-validator.ts";
import { isObject, loadBundledSpec, resolveNode } from "../../../src/spec/spec-document.ts";
import { webhookEventNames } from "../../../src/wire/webhook-event.ts";
import { bankAccount, payerRegistration } from "../fixtures.ts";
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
const explorer = (requestId: string) => `https://scan.request.network/request/${requestId}`;
const eoa = "0x1f9840a85d5aF5bf1D1762F925BDADdC4201F984";

describe("webhook payloads of recordSandboxPayment", () => {
  it("payment.partial and payment.confirmed carry the service's fields, and validate against the spec", async () => {
    const requestId = await createRequest(server);
    const { paymentReference } = (await server.call("GET", `/sandbox/requests/${requestId}`)).body;
    await recordPayment(server, requestId, {
      outcome: "partial",
      amount: "25.5",
      txHash,
      payerAddress: payer,
      payerEoaAddress: eoa,
    });
    const common = {
      requestId,
      requestID: requestId,
      paymentReference,
      explorer: explorer(requestId),
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
      payerAddress: payer,
      payerEoaAddress: eoa,
      ...common,
    });
    expect(specViolations(hook.received.at(-1) as ReceivedWebhook)).toEqual([]);

    server.clock.set("2026-04-12T10:05:00.000Z");
    await recordPayment(server, requestId, { outcome: "paid", txHash });
    expect(lastPayload()).toEqual({
      event: "payment.confirmed",
      amount: "99.5",
      totalAmountPaid: "125",
      payerAddress: null,
      payerEoaAddress: null,
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
      explorer: explorer(requestId),
      subStatus: "insufficient_funds",
      paymentProcessor: "request-network",
    });
    expect(specViolations(hook.received.at(-1) as ReceivedWebhook)).toEqual([]);
  });

  it("payment.processing reports each off-ramp step, payment.refunded what went back", async () => {
    server.clock.set("2026-04-12T11:00:00.000Z");
    const requestId = await createRequest(server);
    const { paymentReference } = (await server.call("GET", `/sandbox/requests/${requestId}`)).body;
    await recordPayment(server, requestId, { outcome: "paid", txHash });
    await recordPayment(server, requestId, { outcome: "processing", subStatus: "sending_fiat" });
    expect(lastPayload()).toEqual({
      event: "payment.processing",
      requestId,
      requestID: requestId,
      paymentReference,
      explorer: explorer(requestId),
      subStatus: "sending_fiat",
      amount: "0",
      totalAmountPaid: "125",
      expectedAmount: "125",
      timestamp: "2026-04-12T11:00:00.000Z",
      paymentCurrency: "USDC",
      isCryptoToFiat: true,
      paymentProcessor: "request-tech",
    });
    expect(specViolations(hook.received.at(-1) as ReceivedWebhook)).toEqual([]);

    await recordPayment(server, requestId, { outcome: "refunded", amount: "25", refundedTo: payer, txHash });
    expect(lastPayload()).toEqual({
      event: "payment.refunded",
      requestId,
      requestID: requestId,
      paymentReference,
      explorer: explorer(requestId),
      refundedTo: payer,
      refundAmount: "25",
      currency: "USDC",
      txHash,
      timestamp: "2026-04-12T11:00:00.000Z",
      paymentProcessor: "request-network",
    });
    expect(specViolations(hook.received.at(-1) as ReceivedWebhook)).toEqual([]);
    const request = (await server.call("GET", `/sandbox/requests/${requestId}`)).body;
    expect([request.status, request.amountPaid]).toEqual(["partially_paid", "100"]);
  });

  it("a request created with a client ID names it in its payment events", async () => {
    const created = await server.call("POST", "/v2/secure-payments", {
      auth: "clientId",
      body: { requests: [{ payee, amount: "10", invoiceCurrency: "USD", paymentCurrency: "USDC-base" }] },
    });
    const requestId = created.body.requestIds[0];
    const before = hook.received.length;
    await recordPayment(server, requestId, { outcome: "paid" });
    const core = hook.received
      .slice(before)
      .find((webhook) => JSON.parse(webhook.body.toString("utf8")).event === "payment.confirmed");
    expect(JSON.parse(core?.body.toString("utf8") as string)).toMatchObject({
      event: "payment.confirmed",
      requestId,
      clientId: sampleCredentials.clientId,
    });
    expect(specViolations(core as ReceivedWebhook)).toEqual([]);
  });
});

describe("webhook payloads of executeSandboxRecurringPayment", () => {
  it("payments name their recurring payment; each next request sends request.recurring", async () => {
    server.clock.set("2026-05-01T09:00:00.000Z");
    const created = await server.call("POST", "/sandbox/recurring-payments", {
      body: {
        payer,
        payee,
        currency: "USDC-base",
        amount: "50",
        totalPayments: 3,
        spender: "0xdc8781ffab20fef4ab0472c3d6e50073b540ed9e",
      },
    });
    const id = created.body.id;
    const execute = async (outcome: string) => {
      const answer = await server.call("POST", `/sandbox/recurring-payments/${id}/executions`, {
        body: { outcome },
      });
      await server.server.webhooks.settled();
      return answer.body;
    };
    const first = await execute("success");
    expect(lastPayload()).toMatchObject({
      event: "payment.confirmed",
      requestId: first.request.requestId,
      payerAddress: payer,
      payerEoaAddress: payer,
      recurringPayment: { id, status: "active", processedPayments: 1, totalPayments: 3 },
    });
    const before = hook.received.length;
    const second = await execute("success");
    const [recurring, confirmed] = hook.received
      .slice(before)
      .map((webhook) => JSON.parse(webhook.body.toString("utf8")));
    expect(recurring).toEqual({
      event: "request.recurring",
      requestId: second.request.requestId,
      requestID: second.request.requestId,
      paymentReference: second.request.paymentReference,
      explorer: explorer(second.request.requestId),
      originalRequestId: first.request.requestId,
      originalRequestPaymentReference: first.request.paymentReference,
      recurringPayment: { id, status: "active", processedPayments: 1, totalPayments: 3 },
      timestamp: "2026-05-01T09:00:00.000Z",
      paymentProcessor: "request-network",
    });
    expect(confirmed).toMatchObject({
      event: "payment.confirmed",
      recurringPayment: { id, status: "active", processedPayments: 2, totalPayments: 3 },
    });
    for (const webhook of hook.received.slice(before)) expect(specViolations(webhook)).toEqual([]);
  });
});

describe("webhook payloads of updateSandboxPayer and updateSandboxPaymentDetail", () => {
  it("compliance.updated follows a payer's statuses; payment_detail.updated a check of their bank details", async () => {
    server.clock.set("2026-04-12T12:40:00.000Z");
    const clientUserId = "cust-20931";
    const registered = await server.call("POST", "/v2/payer", { body: payerRegistration(clientUserId) });
    const pending = await server.call("PATCH", `/sandbox/payers/${clientUserId}`, {
      body: { kycStatus: "pending" },
    });
    // Registration opens the agreement (pending); the verification moves on its own.
    expect(pending.body).toMatchObject({
      kycStatus: "pending",
      agreementStatus: "pending",
      isCompliant: false,
    });
    await server.server.webhooks.settled();
    expect(lastPayload()).toEqual({
      event: "compliance.updated",
      clientUserId,
      kycStatus: "pending",
      agreementStatus: "pending",
      isCompliant: false,
      timestamp: "2026-04-12T12:40:00.000Z",
    });
    const before = hook.received.length;
    const unchanged = await server.call("PATCH", `/sandbox/payers/${clientUserId}`, {
      body: { kycStatus: "pending" },
    });
    expect(unchanged.status).toBe(200);
    const approved = await server.call("PATCH", `/sandbox/payers/${clientUserId}`, {
      body: { kycStatus: "approved", agreementStatus: "completed" },
    });
    expect(approved.body.isCompliant).toBe(true);
    await server.server.webhooks.settled();
    // The unchanged update sent nothing; the approval sent one event.
    expect(hook.received.length).toBe(before + 1);
    expect(lastPayload()).toMatchObject({
      kycStatus: "approved",
      agreementStatus: "completed",
      isCompliant: true,
    });
    expect(specViolations(hook.received.at(-1) as ReceivedWebhook)).toEqual([]);

    // Codes in lower case, as the service's own app sends them: answered upper case.
    const details = await server.call("POST", `/v1/payer/${clientUserId}/payment-details`, {
      body: { ...bankAccount, currency: "eur", country: "de" },
    });
    const paymentDetailsId = details.body.payment_detail.id;
    const failed = await server.call(
      "PATCH",
      `/sandbox/payers/${clientUserId}/payment-details/${paymentDetailsId}`,
      {
        body: { status: "failed", rejectionMessage: "The IBAN does not exist" },
      },
    );
    expect(failed.body).toEqual({
      id: paymentDetailsId,
      clientUserId,
      userId: registered.body.userId,
      rails: "local",
      bankName: "Musterbank Berlin",
      accountName: "Erika Mustermann",
      currency: "EUR",
      beneficiaryType: "individual",
      status: "failed",
    });
    await server.server.webhooks.settled();
    expect(lastPayload()).toEqual({
      event: "payment_detail.updated",
      paymentDetailsId,
      clientUserId,
      status: "failed",
      rejectionMessage: "The IBAN does not exist",
      timestamp: "2026-04-12T12:40:00.000Z",
    });
    expect(specViolations(hook.received.at(-1) as ReceivedWebhook)).toEqual([]);
  });

  it("answer 404 for an unknown payer or unknown payment details", async () => {
    const payerless = await server.call("PATCH", "/sandbox/payers/nobody", {
      body: { kycStatus: "approved" },
    });
    expect(payerless.status).toBe(404);
    const detailless = await server.call("PATCH", "/sandbox/payers/cust-20931/payment-details/none", {
      body: { status: "approved" },
    });
    expect(detailless.status).toBe(404);
  });
});

describe("test deliveries (sendSandboxWebhookTest)", () => {
  it("exist for all sixteen events, the four scoped duplicates and secure_payment.access_rejected included, and every one validates against the spec", async () => {
    const events = [...webhookEventNames];
    expect(events).toHaveLength(16);
    const before = hook.received.length;
    for (const event of events) {
      await server.call("POST", `/sandbox/webhooks/endpoints/${endpointId}/test`, { body: { event } });
    }
    await server.server.webhooks.settled();
    const recent = hook.received.slice(before);
    expect(
      recent.map((webhook) => [
        JSON.parse(webhook.body.toString("utf8")).event,
        webhook.headers["x-request-network-test"],
      ]),
    ).toEqual(events.map((event) => [event, "true"]));
    for (const webhook of recent) expect(specViolations(webhook)).toEqual([]);
  });

  it("the spec check catches a payload that breaks it", () => {
    const broken: ReceivedWebhook = {
      headers: { "x-request-network-signature": "ABC", "x-request-network-retry-count": "4" },
      body: Buffer.from(JSON.stringify({ event: "payment.failed", requestId: 5 })),
    };
    expect(specViolations(broken).map((violation) => violation.split(":")[0])).toEqual([
      "body",
      "x-request-network-signature",
      "x-request-network-delivery",
      "x-request-network-retry-count",
    ]);
  });
});
