import { type Address, maxUint256, zeroAddress } from "viem";
import { computePaymentReference, type TokenRecord } from "../../../chain/index.ts";
import { newRequestId, newSalt } from "../../ids.ts";
import { type ValidationIssue, validationFailed } from "../../problems.ts";
import type { RequestPaymentRecord, RequestRecord } from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import { convertInvoiceAmount } from "./conversion.ts";
import { findCurrency, requireCurrency } from "./currencies.ts";
import type { Schemas } from "./wire-types.ts";

/** One request to create, checked: its token and what the payer will owe in base units. */
export interface PlannedRequest {
  item: Schemas["PaymentRequestItem"];
  token: TokenRecord;
  expectedAmount: bigint;
}

/**
 * Checks the items of a creation call: an EVM payee, known payment currencies, a convertible
 * invoice currency, an amount above zero, and one network for all. Collects every issue, at
 * `<pointer>/<index>/...`.
 */
export function planRequests(
  items: Schemas["PaymentRequestItem"][],
  pointer: string,
): { network: string; plans: PlannedRequest[] } {
  return planItems(items, pointer, (index) => `${pointer}/${index}`);
}

/** Checks the one request of a single-request body, with issues at `<pointer>/<field>`. */
export function planRequest(item: Schemas["PaymentRequestItem"], pointer: string): PlannedRequest {
  const [plan] = planItems([item], pointer, () => pointer).plans;
  if (!plan) throw new Error("planItems returned no plan for a valid item");
  return plan;
}

function planItems(
  items: Schemas["PaymentRequestItem"][],
  pointer: string,
  itemPointer: (index: number) => string,
): { network: string; plans: PlannedRequest[] } {
  const issues: ValidationIssue[] = [];
  const plans: PlannedRequest[] = [];
  let first: { index: number; network: string } | undefined;
  const mismatches: string[] = [];

  items.forEach((item, index) => {
    const at = itemPointer(index);
    if (item.payee.toLowerCase() === zeroAddress) {
      issues.push({ path: `${at}/payee`, message: "must not be the zero address: payments to it are burnt" });
    }
    // The spec takes the service's Tron payees (PayeeAddress); the sandbox has no Tron network.
    if (!item.payee.startsWith("0x")) {
      issues.push({
        path: `${at}/payee`,
        message:
          "is a Tron address, and payreq serves EVM networks only: send an EVM address (0x and 40 hex digits)",
      });
    }
    const token = findCurrency(item.paymentCurrency);
    if (!token) {
      issues.push({
        path: `${at}/paymentCurrency`,
        message: `is not a currency the service supports, got "${item.paymentCurrency}" (see GET /v1/currencies)`,
      });
      return;
    }
    if (!first) first = { index, network: token.network };
    else if (token.network !== first.network) {
      mismatches.push(`${at} on ${token.network}`);
      issues.push({
        path: `${at}/paymentCurrency`,
        message: `must be on network ${first.network} like ${pointer}/${first.index}, got ${item.paymentCurrency}`,
      });
    }
    const converted = convertInvoiceAmount(item.amount, item.invoiceCurrency, token);
    if (!converted.ok) {
      issues.push({ path: `${at}/invoiceCurrency`, message: converted.message });
      return;
    }
    if (converted.baseUnits === 0n) {
      issues.push({ path: `${at}/amount`, message: `must be greater than 0, got "${item.amount}"` });
      return;
    }
    if (converted.baseUnits > maxUint256) {
      issues.push({
        path: `${at}/amount`,
        message: `is too large to pay on chain in ${token.id}, got "${item.amount}"`,
      });
      return;
    }
    plans.push({ item, token, expectedAmount: converted.baseUnits });
  });

  if (issues.length > 0) {
    const detail =
      mismatches.length > 0 && first
        ? `All requests must pay on one network: ${pointer}/${first.index} pays on ${first.network}, ${mismatches.join(", ")}.`
        : undefined;
    throw validationFailed(issues, detail);
  }
  return { network: (first as { network: string }).network, plans };
}

/** A new request record: a random id and salt, and the payment reference they give with the payee. */
export function createRequestRecord(
  plan: PlannedRequest,
  context: {
    accountId: string;
    now: Date;
    securePaymentToken: string | null;
    /** The public client ID the caller used, when it used one. */
    clientId?: string | null;
    /** The Origin that client ID was checked against; null for a backend client ID. */
    origin?: string | null;
    recurringPaymentId?: string | null;
    /** `outgoing` when the account pays the request; incoming otherwise. */
    flow?: "outgoing";
  },
): RequestRecord {
  const requestId = newRequestId();
  const salt = newSalt();
  const payee = plan.item.payee as Address;
  const at = context.now.toISOString();
  return {
    requestId,
    accountId: context.accountId,
    network: plan.token.network,
    payee,
    invoiceAmount: plan.item.amount,
    invoiceCurrency: canonicalInvoiceCurrency(plan.item.invoiceCurrency),
    paymentCurrency: plan.token.id,
    expectedAmount: plan.expectedAmount.toString(),
    salt,
    paymentReference: computePaymentReference({ requestId, salt, paymentAddress: payee }),
    status: "pending",
    amountPaid: "0",
    payments: [],
    securePaymentToken: context.securePaymentToken,
    clientId: context.clientId ?? null,
    origin: context.origin ?? null,
    recurringPaymentId: context.recurringPaymentId ?? null,
    // Only payouts say so: a record without `flow` is one the account is paid through.
    ...(context.flow === "outgoing" ? { flow: "outgoing" as const } : {}),
    createdAt: at,
    updatedAt: at,
  };
}

/** An invoice currency as stored: a known currency id in its table spelling, a fiat code in upper case. */
function canonicalInvoiceCurrency(invoiceCurrency: string): string {
  return findCurrency(invoiceCurrency)?.id ?? invoiceCurrency.toUpperCase();
}

/** What created a request: the link it belongs to, or the recurring payment whose period it pays. */
type RequestOrigin = { securePaymentToken: string | null } | { recurringPaymentId: string };

/** Keeps a new request and its `request.created` event, inside the caller's transaction. */
export async function storeNewRequest(
  tx: StoreOperations,
  request: RequestRecord,
  origin: RequestOrigin,
  occurredAt: string,
): Promise<void> {
  await tx.requests.put(request);
  await tx.appendEvent({
    type: "request.created",
    occurredAt,
    data: { requestId: request.requestId, paymentReference: request.paymentReference, ...origin },
  });
}

/** The currency a stored request is paid in. */
export function paymentTokenOf(request: RequestRecord): TokenRecord {
  return requireCurrency(request.paymentCurrency, `request ${request.requestId}`);
}

/** What is left to pay on a request, in base units (never negative). */
export function remainingAmount(request: RequestRecord): bigint {
  const left = BigInt(request.expectedAmount) - BigInt(request.amountPaid);
  return left > 0n ? left : 0n;
}

/** What a payment that names no amount pays: what is left of the request, or all of it again once paid. */
export function amountDue(request: RequestRecord): bigint {
  const left = remainingAmount(request);
  return left > 0n ? left : BigInt(request.expectedAmount);
}

/** The payments a request received: failed attempts moved nothing. */
export function receivedPayments(request: RequestRecord): RequestPaymentRecord[] {
  return request.payments.filter((payment) => payment.outcome !== "failed");
}

/** The payments that moved money to the payee: not failures, refunds or processing steps. */
export function paymentsReceived(request: RequestRecord): RequestPaymentRecord[] {
  return request.payments.filter((payment) => payment.outcome === "paid" || payment.outcome === "partial");
}

/** The requests of `ids` that exist, in the order of `ids`. */
export async function loadRequests(tx: StoreOperations, ids: string[]): Promise<RequestRecord[]> {
  const found = await Promise.all(ids.map((id) => tx.requests.get(id)));
  return found.filter((request): request is RequestRecord => request !== undefined);
}
