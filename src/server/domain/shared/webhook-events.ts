import type { TokenRecord } from "../../../chain/index.ts";
import { coreEventOf, type ScopedPaymentEventName } from "../../../wire/webhook-event.ts";
import { newUlid } from "../../ids.ts";
import type {
  DeliveryEventName,
  RecurringPaymentRecord,
  RequestPaymentRecord,
  RequestRecord,
  WebhookEventData,
  WebhookEventName,
} from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import { formatBaseUnits } from "./amounts.ts";
import { findCurrency } from "./currencies.ts";
import type { Schemas } from "./wire-types.ts";

/** Who processes sandbox payments: plain crypto payments, and off-ramp steps for processing. */
const cryptoProcessor = "request-network";
const fiatProcessor = "request-tech";

/** The event each recorded outcome sends. */
export const paymentEventOf: Record<RequestPaymentRecord["outcome"], WebhookEventName> = {
  paid: "payment.confirmed",
  partial: "payment.partial",
  failed: "payment.failed",
  processing: "payment.processing",
  refunded: "payment.refunded",
};

/** What a payment webhook says about the recurring payment a payment belongs to. */
export type WebhookRecurringPayment = Schemas["WebhookRecurringPayment"];

/** What webhooks say about a recurring payment: its id and counters. */
export function toWebhookRecurringPayment(record: RecurringPaymentRecord): WebhookRecurringPayment {
  const { id, status, processedPayments, totalPayments } = record;
  return { id, status, processedPayments, totalPayments };
}

/** The recurring payment whose period a request pays, as its webhooks report it; none for other requests. */
async function recurringPaymentOf(
  tx: StoreOperations,
  request: RequestRecord,
): Promise<WebhookRecurringPayment | undefined> {
  if (!request.recurringPaymentId) return undefined;
  const record = await tx.recurringPayments.get(request.recurringPaymentId);
  return record ? toWebhookRecurringPayment(record) : { id: request.recurringPaymentId };
}

/** The Request Scan page of a request, as the service links it in payment events. */
export function explorerUrl(requestId: string): string {
  return `https://scan.request.network/request/${requestId}`;
}

/** Webhooks (and payment searches) name currencies by symbol or fiat code, never by currency id. */
export function currencyCode(currency: string): string {
  return findCurrency(currency)?.symbol ?? currency;
}

/** The members every payment event about a request starts with. */
function aboutRequest(event: WebhookEventName, request: RequestRecord) {
  return {
    event,
    requestId: request.requestId,
    requestID: request.requestId,
    paymentReference: request.paymentReference,
    explorer: explorerUrl(request.requestId),
    ...(request.clientId ? { clientId: request.clientId } : {}),
  };
}

/** The body of the webhook a recorded payment sends, as the service spells it. */
export function buildPaymentPayload(
  request: RequestRecord,
  payment: RequestPaymentRecord,
  token: TokenRecord,
  amountPaid: bigint,
  recurringPayment?: WebhookRecurringPayment,
): Record<string, unknown> {
  const event = paymentEventOf[payment.outcome];
  const identity = {
    ...aboutRequest(event, request),
    ...(recurringPayment ? { recurringPayment } : {}),
  };
  const amounts = {
    amount: formatBaseUnits(payment.amount, token.decimals),
    totalAmountPaid: formatBaseUnits(amountPaid, token.decimals),
    expectedAmount: formatBaseUnits(request.expectedAmount, token.decimals),
  };
  switch (payment.outcome) {
    case "failed":
      return { ...identity, subStatus: payment.subStatus ?? "", paymentProcessor: cryptoProcessor };
    case "processing":
      return {
        ...identity,
        subStatus: payment.subStatus ?? "initiated",
        ...amounts,
        timestamp: payment.recordedAt,
        paymentCurrency: token.symbol,
        isCryptoToFiat: true,
        paymentProcessor: fiatProcessor,
      };
    case "refunded":
      return {
        ...identity,
        refundedTo: payment.refundedTo,
        refundAmount: amounts.amount,
        currency: token.symbol,
        txHash: payment.txHash,
        timestamp: payment.recordedAt,
        paymentProcessor: cryptoProcessor,
      };
    default:
      return {
        ...identity,
        ...amounts,
        timestamp: payment.recordedAt,
        txHash: payment.txHash,
        payerAddress: payment.payer ?? null,
        payerEoaAddress: payment.payerEoaAddress ?? null,
        network: request.network,
        currency: currencyCode(request.invoiceCurrency),
        paymentCurrency: token.symbol,
        isCryptoToFiat: false,
        subStatus: "",
        paymentProcessor: cryptoProcessor,
        // The sandbox takes no fee on recorded payments.
        fees: [],
      };
  }
}

/**
 * Appends a webhook event to the outbox, inside the caller's transaction: the event exists if and
 * only if the change it reports does. The payload is fixed now, as it will be sent.
 */
export async function appendWebhookEvent(
  tx: StoreOperations,
  input: {
    event: WebhookEventName;
    accountId: string;
    requestId: string | null;
    occurredAt: string;
    payload: Record<string, unknown>;
  },
): Promise<void> {
  const data = {
    eventId: newUlid(new Date(input.occurredAt)),
    accountId: input.accountId,
    requestId: input.requestId,
    payload: input.payload,
  } satisfies WebhookEventData;
  await tx.appendEvent({ type: input.event, occurredAt: input.occurredAt, data });
}

/**
 * Appends the webhook event of a recorded payment (see buildPaymentPayload); a payment of a
 * recurring payment's period names it with its counters as stored.
 */
export async function appendPaymentWebhookEvent(
  tx: StoreOperations,
  request: RequestRecord,
  payment: RequestPaymentRecord,
  token: TokenRecord,
  amountPaid: bigint,
): Promise<void> {
  const recurringPayment = await recurringPaymentOf(tx, request);
  const payload = buildPaymentPayload(request, payment, token, amountPaid, recurringPayment);
  const core = { accountId: request.accountId, requestId: request.requestId, occurredAt: payment.recordedAt };
  await appendWebhookEvent(tx, { ...core, event: paymentEventOf[payment.outcome], payload });
  for (const duplicate of buildScopedDuplicates(request, payload)) {
    await appendWebhookEvent(tx, { ...core, event: duplicate.event, payload: duplicate });
  }
}

/**
 * The scoped duplicates the service sends in addition to a `payment.confirmed` or
 * `payment.partial` payload: `.client_id` for a request created with a client ID (adding the
 * Origin it came from, null for a backend client ID), `.checkout` for a request of a secure
 * payment link, which only a link's creation gives a token (adding the token). None for other
 * events and other requests.
 */
export function buildScopedDuplicates(
  request: Pick<RequestRecord, "clientId" | "origin" | "securePaymentToken">,
  payload: Record<string, unknown>,
): (Record<string, unknown> & { event: ScopedPaymentEventName })[] {
  const event = payload.event;
  if (event !== "payment.confirmed" && event !== "payment.partial") return [];
  const duplicates: (Record<string, unknown> & { event: ScopedPaymentEventName })[] = [];
  if (request.clientId) {
    duplicates.push({
      ...payload,
      event: `${event}.client_id`,
      clientId: request.clientId,
      origin: request.origin ?? null,
    });
  }
  if (request.securePaymentToken) {
    duplicates.push({
      ...payload,
      event: `${event}.checkout`,
      securePaymentToken: request.securePaymentToken,
    });
  }
  return duplicates;
}

/** The body of `request.recurring`: the next request of a recurrence, and the one it recurs from. */
export function buildRequestRecurringPayload(
  request: RequestRecord,
  original: Pick<RequestRecord, "requestId" | "paymentReference">,
  recurringPayment: WebhookRecurringPayment | undefined,
  now: Date,
): Record<string, unknown> {
  return {
    ...aboutRequest("request.recurring", request),
    originalRequestId: original.requestId,
    originalRequestPaymentReference: original.paymentReference,
    ...(recurringPayment ? { recurringPayment } : {}),
    timestamp: now.toISOString(),
    paymentProcessor: cryptoProcessor,
  };
}

/**
 * Appends `request.recurring` to the caller's transaction: a new request that recurs from
 * `original`, issued by the recurrence of a request or by a recurring payment (named with its
 * counters as stored).
 */
export async function appendRequestRecurring(
  tx: StoreOperations,
  request: RequestRecord,
  original: Pick<RequestRecord, "requestId" | "paymentReference">,
  now: Date,
): Promise<void> {
  await appendWebhookEvent(tx, {
    event: "request.recurring",
    accountId: request.accountId,
    requestId: request.requestId,
    occurredAt: now.toISOString(),
    payload: buildRequestRecurringPayload(request, original, await recurringPaymentOf(tx, request), now),
  });
}

const placeholderRequestId = `01${"0".repeat(63)}1`;
const placeholderOriginalId = `01${"0".repeat(63)}2`;
const placeholderTxHash = `0x${"0".repeat(64)}`;
const placeholderWallet = `0x${"0".repeat(39)}1`;
const placeholderToken = "0".repeat(26);

const placeholderClientId = "pk_test_placeholder";
const placeholderUlid = "01KP0000000000000000000000";

/** The events whose test payload names no request: each has a shape of its own. */
const requestlessTestEvents = [
  "client_id.linked",
  "kyt.screening.completed",
  "secure_payment.access_rejected",
] as const;
type RequestlessTestEvent = (typeof requestlessTestEvents)[number];
const isRequestlessTestEvent = (event: DeliveryEventName): event is RequestlessTestEvent =>
  (requestlessTestEvents as readonly string[]).includes(event);

/**
 * The body of a test delivery of an event about an orchestrator's link or a payer's screening,
 * in the shape the service documents for it, with placeholder values.
 */
function buildDocumentedTestPayload(event: RequestlessTestEvent, timestamp: string): Record<string, unknown> {
  switch (event) {
    case "client_id.linked":
      return {
        event,
        clientId: placeholderClientId,
        orchestratorId: placeholderUlid,
        linkId: placeholderUlid,
        intentId: placeholderUlid,
        externalId: "test-merchant",
        destinationId: `${placeholderWallet}@eip155:8453#00000000:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913`,
        destinationWalletAddress: placeholderWallet,
        chain: "base",
        currency: "USDC",
        timestamp,
      };
    case "kyt.screening.completed":
      return {
        event,
        paymentToken: placeholderUlid,
        clientId: placeholderClientId,
        orchestratorId: placeholderUlid,
        walletAddress: placeholderWallet,
        eoaAddress: placeholderWallet,
        smartAccountAddress: null,
        status: "approved",
        provider: "test",
        policyId: null,
        timestamp,
      };
    case "secure_payment.access_rejected":
      return {
        event,
        requestId: placeholderRequestId,
        clientId: placeholderClientId,
        orchestratorId: placeholderUlid,
        attemptedPayerWalletAddress: placeholderWallet,
        timestamp,
      };
  }
}

/** The body of a test delivery: placeholder values a receiver must not act on. */
export function buildTestPayload(event: DeliveryEventName, now: Date): Record<string, unknown> {
  if (isRequestlessTestEvent(event)) return buildDocumentedTestPayload(event, now.toISOString());
  const core = coreEventOf(event);
  if (core !== event) {
    // A scoped duplicate: the test payload of its event, with the members it adds.
    const placeholderRequest = {
      clientId: placeholderClientId,
      origin: null,
      securePaymentToken: placeholderUlid,
    };
    const duplicate = buildScopedDuplicates(placeholderRequest, buildTestPayload(core, now)).find(
      (payload) => payload.event === event,
    );
    if (duplicate) return duplicate;
  }
  const timestamp = now.toISOString();
  const identity = {
    event,
    requestId: placeholderRequestId,
    requestID: placeholderRequestId,
    paymentReference: "0x0000000000000000",
    explorer: explorerUrl(placeholderRequestId),
  };
  const amounts = (paid: string) => ({ amount: paid, totalAmountPaid: paid, expectedAmount: "125" });
  switch (event) {
    case "payment.failed":
      return { ...identity, subStatus: "insufficient_funds", paymentProcessor: cryptoProcessor };
    case "payment.processing":
      return {
        ...identity,
        subStatus: "initiated",
        ...amounts("125"),
        timestamp,
        paymentCurrency: "USDC",
        isCryptoToFiat: true,
        paymentProcessor: fiatProcessor,
      };
    case "payment.refunded":
      return {
        ...identity,
        refundedTo: placeholderWallet,
        refundAmount: "125",
        currency: "USDC",
        txHash: placeholderTxHash,
        timestamp,
        paymentProcessor: cryptoProcessor,
      };
    case "request.recurring":
      return {
        ...identity,
        originalRequestId: placeholderOriginalId,
        originalRequestPaymentReference: "0x0000000000000001",
        timestamp,
        paymentProcessor: cryptoProcessor,
      };
    case "compliance.updated":
      return {
        event,
        clientUserId: "test-payer",
        kycStatus: "approved",
        agreementStatus: "completed",
        isCompliant: true,
        timestamp,
      };
    case "payment_detail.updated":
      return {
        event,
        paymentDetailsId: "00000000-0000-4000-8000-000000000000",
        clientUserId: "test-payer",
        status: "approved",
        timestamp,
      };
    case "secure_payment.user_event":
      return {
        event,
        userEvent: "wallet_connected",
        securePaymentToken: placeholderToken,
        requestId: placeholderRequestId,
        requestIds: [placeholderRequestId],
        clientId: "test-client-id",
        occurredAt: timestamp,
        timestamp,
        properties: {},
      };
    default:
      return {
        ...identity,
        ...amounts(event === "payment.partial" ? "50" : "125"),
        timestamp,
        txHash: placeholderTxHash,
        payerAddress: null,
        payerEoaAddress: null,
        network: "base",
        currency: "USD",
        paymentCurrency: "USDC",
        isCryptoToFiat: false,
        subStatus: "",
        paymentProcessor: cryptoProcessor,
        fees: [],
      };
  }
}
