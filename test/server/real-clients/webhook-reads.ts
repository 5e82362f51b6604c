import type { MemberType, RealClient } from "./client-calls.ts";

/**
 * What real webhook receivers read of each event, transcribed as data. Both check the signature
 * the same way: the HMAC-SHA256, keyed by the secret, of `JSON.stringify` of the parsed body,
 * compared with `x-request-network-signature` as lowercase hex.
 */
export interface WebhookReads {
  client: RealClient;
  source: string;
  event: string;
  /** The kind of delivery, when the receiver reads an event differently by case. */
  variant?: string;
  reads: Record<string, MemberType>;
}

const easyInvoiceReceiver = "src/app/api/webhook/route.ts POST";

export const webhookReads: WebhookReads[] = [
  {
    client: "easy-invoice",
    source: easyInvoiceReceiver,
    event: "payment.confirmed",
    variant: "a request's payment",
    reads: { requestId: "string", isCryptoToFiat: "boolean?", recurringPayment: "object|null?" },
  },
  {
    client: "easy-invoice",
    source: easyInvoiceReceiver,
    event: "payment.confirmed",
    variant: "a payment of a recurring payment",
    reads: { "recurringPayment.id": "string", timestamp: "string", txHash: "string?", explorer: "string?" },
  },
  {
    client: "easy-invoice",
    source: easyInvoiceReceiver,
    event: "payment.processing",
    reads: { requestId: "string", subStatus: "string" },
  },
  {
    client: "easy-invoice",
    source: easyInvoiceReceiver,
    event: "request.recurring",
    reads: { requestId: "string", originalRequestId: "string", paymentReference: "string" },
  },
  {
    client: "easy-invoice",
    source: easyInvoiceReceiver,
    event: "compliance.updated",
    reads: { clientUserId: "string", isCompliant: "boolean", kycStatus: "string", agreementStatus: "string" },
  },
  {
    client: "easy-invoice",
    source: easyInvoiceReceiver,
    event: "payment_detail.updated",
    reads: { paymentDetailsId: "string", status: "string" },
  },
  {
    client: "integration-demo",
    source: "rn-test-backend/src/index.ts POST /webhooks",
    event: "payment.confirmed",
    reads: { requestId: "string", event: "string" },
  },
];

/**
 * The `payment.processing` steps easy-invoice's receiver maps to an invoice status; it answers
 * 422 to any other.
 */
export const easyInvoiceProcessingSteps = [
  "initiated",
  "failed",
  "bounced",
  "pending_internal_assessment",
  "ongoing_checks",
  "sending_fiat",
  "fiat_sent",
];
