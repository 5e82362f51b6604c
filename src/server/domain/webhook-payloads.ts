import type { TokenRecord } from "../../chain/index.ts";
import type {
  RequestPaymentRecord,
  RequestRecord,
  WebhookEventData,
  WebhookEventName,
} from "../store/records.ts";
import type { StoreOperations } from "../store/store.ts";
import { formatBaseUnits } from "./amounts.ts";
import { findCurrency } from "./currencies.ts";
import { newUlid } from "./ids.ts";

/** Who processes sandbox payments: they are plain crypto payments. */
const paymentProcessor = "request-network";

const eventOf: Record<RequestPaymentRecord["outcome"], WebhookEventName> = {
  paid: "payment.confirmed",
  partial: "payment.partial",
  failed: "payment.failed",
};

/** Webhooks (and payment searches) name currencies by symbol or fiat code, never by currency id. */
export function currencyCode(currency: string): string {
  return findCurrency(currency)?.symbol ?? currency;
}

/** The body of the webhook a recorded payment sends, as the service spells it. */
export function buildPaymentPayload(
  request: RequestRecord,
  payment: RequestPaymentRecord,
  token: TokenRecord,
  amountPaid: bigint,
): Record<string, unknown> {
  const event = eventOf[payment.outcome];
  const identity = {
    event,
    requestId: request.requestId,
    requestID: request.requestId,
    paymentReference: request.paymentReference,
  };
  if (event === "payment.failed") {
    return { ...identity, subStatus: payment.subStatus ?? "", paymentProcessor };
  }
  // Receivers tell a recurring payment's executions apart by this member.
  const recurring = request.recurringPaymentId
    ? { recurringPayment: { id: request.recurringPaymentId } }
    : {};
  return {
    ...identity,
    ...recurring,
    amount: formatBaseUnits(payment.amount, token.decimals),
    totalAmountPaid: formatBaseUnits(amountPaid, token.decimals),
    expectedAmount: formatBaseUnits(request.expectedAmount, token.decimals),
    timestamp: payment.recordedAt,
    txHash: payment.txHash,
    network: request.network,
    currency: currencyCode(request.invoiceCurrency),
    paymentCurrency: token.symbol,
    isCryptoToFiat: false,
    subStatus: "",
    paymentProcessor,
    // The sandbox takes no fee on recorded payments.
    fees: [],
  };
}

/**
 * Appends the webhook event of a recorded payment to the outbox, inside the caller's transaction:
 * the event exists if and only if the payment does.
 */
export async function appendPaymentWebhookEvent(
  tx: StoreOperations,
  request: RequestRecord,
  payment: RequestPaymentRecord,
  token: TokenRecord,
  amountPaid: bigint,
): Promise<void> {
  const data = {
    eventId: newUlid(new Date(payment.recordedAt)),
    accountId: request.accountId,
    requestId: request.requestId,
    payload: buildPaymentPayload(request, payment, token, amountPaid),
  } satisfies WebhookEventData;
  await tx.appendEvent({ type: eventOf[payment.outcome], occurredAt: payment.recordedAt, data });
}

const placeholderRequestId = `01${"0".repeat(63)}1`;

/** The body of a test delivery: placeholder values a receiver must not act on. */
export function buildTestPayload(event: WebhookEventName, now: Date): Record<string, unknown> {
  const identity = {
    event,
    requestId: placeholderRequestId,
    requestID: placeholderRequestId,
    paymentReference: "0x0000000000000000",
  };
  if (event === "payment.failed") {
    return { ...identity, subStatus: "insufficient_funds", paymentProcessor };
  }
  const partial = event === "payment.partial";
  return {
    ...identity,
    amount: partial ? "50" : "125",
    totalAmountPaid: partial ? "50" : "125",
    expectedAmount: "125",
    timestamp: now.toISOString(),
    txHash: `0x${"0".repeat(64)}`,
    network: "base",
    currency: "USD",
    paymentCurrency: "USDC",
    isCryptoToFiat: false,
    subStatus: "",
    paymentProcessor,
    fees: [],
  };
}
