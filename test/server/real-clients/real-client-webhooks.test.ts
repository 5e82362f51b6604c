import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bankAccount, payerRegistration } from "../fixtures.ts";
import { payee, payer, type TestServer } from "../helpers.ts";
import { createRequest, recordPayment, registerEndpoint, startWebhookServer } from "../webhooks/harness.ts";
import { type Receiver, startReceiver } from "../webhooks/receiver.ts";
import { typeIssues } from "./read-members.ts";
import { easyInvoiceProcessingSteps, webhookReads } from "./webhook-reads.ts";

// The events real receivers handle, sent by the reference server through the sandbox, and read
// as those receivers read them.

/** The `payment.processing` steps the reference server reports (the sandbox records each). */
const serverProcessingSteps = [
  "initiated",
  "pending_internal_assessment",
  "ongoing_checks",
  "sending_fiat",
  "fiat_sent",
  "bounced",
  "retry_required",
];

interface Delivered {
  signature: string | undefined;
  raw: string;
  payload: Record<string, unknown>;
}

let server: TestServer;
let hook: Receiver;
let secret: string;
const delivered = (event: string): Delivered[] =>
  hook.received
    .map((webhook) => {
      const raw = webhook.body.toString("utf8");
      const signature = webhook.headers["x-request-network-signature"];
      return {
        signature: typeof signature === "string" ? signature : undefined,
        raw,
        payload: JSON.parse(raw),
      };
    })
    .filter(({ payload }) => payload.event === event);

beforeAll(async () => {
  hook = await startReceiver();
  server = await startWebhookServer();
  secret = (await registerEndpoint(server, hook.url)).secret;

  // A request paid, then each off-ramp step reported.
  const requestId = await createRequest(server);
  await recordPayment(server, requestId, { outcome: "paid", txHash: `0x${"cd".repeat(32)}` });
  for (const subStatus of serverProcessingSteps) {
    await recordPayment(server, requestId, { outcome: "processing", subStatus });
  }

  // Two payments of a recurring payment: the second period's request is sent as request.recurring.
  server.clock.set("2026-05-01T09:00:00.000Z");
  const recurring = await server.call("POST", "/sandbox/recurring-payments", {
    body: {
      payer,
      payee,
      currency: "USDC-base",
      amount: "50",
      totalPayments: 3,
      spender: "0xdc8781ffab20fef4ab0472c3d6e50073b540ed9e",
    },
  });
  expect(recurring.status, recurring.text).toBe(201);
  for (let period = 0; period < 2; period++) {
    const executed = await server.call(
      "POST",
      `/sandbox/recurring-payments/${recurring.body.id}/executions`,
      {
        body: { outcome: "success" },
      },
    );
    expect(executed.status, executed.text).toBe(201);
  }

  // A payer's compliance and bank details checked.
  const clientUserId = "dana.whitfield@example.com";
  await server.call("POST", "/v2/payer", { body: payerRegistration(clientUserId) });
  const inPath = encodeURIComponent(clientUserId);
  await server.call("PATCH", `/sandbox/payers/${inPath}`, { body: { kycStatus: "approved" } });
  const details = await server.call("POST", `/v2/payer/${inPath}/payment-details`, { body: bankAccount });
  expect(details.status, details.text).toBe(201);
  await server.call("PATCH", `/sandbox/payers/${inPath}/payment-details/${details.body.payment_detail.id}`, {
    body: { status: "approved" },
  });
  await server.server.webhooks.settled();
});
afterAll(async () => {
  await server.close();
  await hook.close();
});

describe("the webhooks real receivers read, as the reference server sends them", () => {
  for (const { client, source, event, variant, reads } of webhookReads) {
    it(`${client} ${source}: ${event}${variant ? ` (${variant})` : ""}`, () => {
      const recurringCase = variant === "a payment of a recurring payment";
      const deliveries = delivered(event).filter(({ payload }) =>
        variant === undefined ? true : recurringCase === (payload.recurringPayment != null),
      );
      expect(deliveries.length).toBeGreaterThan(0);
      for (const { payload } of deliveries) {
        expect(Object.entries(reads).flatMap(([member, type]) => typeIssues(payload, member, type))).toEqual(
          [],
        );
      }
    });
  }

  it("are signed so that the receivers' check passes: the HMAC of JSON.stringify of the parsed body", () => {
    expect(hook.received.length).toBeGreaterThan(10);
    for (const { payload, raw, signature } of hook.received.map((webhook) => ({
      raw: webhook.body.toString("utf8"),
      payload: JSON.parse(webhook.body.toString("utf8")),
      signature: webhook.headers["x-request-network-signature"],
    }))) {
      // The receivers re-serialise the body before signing it: it must come back byte for byte.
      expect(JSON.stringify(payload)).toBe(raw);
      expect(signature).toBe(createHmac("sha256", secret).update(JSON.stringify(payload)).digest("hex"));
    }
  });

  it("report one off-ramp step easy-invoice's receiver does not map, retry_required, which it answers 422", () => {
    const sent = delivered("payment.processing").map(({ payload }) => payload.subStatus);
    expect(sent).toEqual(serverProcessingSteps);
    expect(sent.filter((step) => !easyInvoiceProcessingSteps.includes(step as string))).toEqual([
      "retry_required",
    ]);
  });
});
