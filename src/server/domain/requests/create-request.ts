import type { Address } from "viem";
import { type ValidationIssue, validationFailed } from "../../problems.ts";
import type { RequestRecord } from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import type { DomainContext } from "../shared/context.ts";
import { readCustomerInfo } from "../shared/customer-info.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { findOwnRequest } from "../shared/own-records.ts";
import { callerClientScope, type Principal } from "../shared/principal.ts";
import { readStartDate } from "../shared/recurrence.ts";
import { createRequestRecord, planRequest, storeNewRequest } from "../shared/requests.ts";
import { checksummed } from "../shared/wallet-book.ts";
import { appendRequestRecurring } from "../shared/webhook-events.ts";
import type { Schemas } from "../shared/wire-types.ts";

/**
 * Stands for the service's off-ramp in the sandbox: a crypto-to-fiat request without a payee is
 * paid to it, as the service pays its off-ramp before the fiat leg. A made-up address.
 */
export const sandboxOffRampAddress: Address = "0xc59D435887F5955731b31386fE4E487d3eeE8516";

type CreateRequestBody = OperationInput<"createRequest">["body"];

/**
 * The recurring invoice this period continues, when the body names one: one of the caller's
 * requests, by id and (when given) reference.
 */
async function loadOriginal(
  tx: StoreOperations,
  principal: Principal,
  body: CreateRequestBody,
): Promise<RequestRecord | undefined> {
  if (body.originalRequestId === undefined) return undefined;
  const original = await findOwnRequest(tx, principal, body.originalRequestId);
  const issues: ValidationIssue[] = [];
  if (!original) {
    issues.push({ path: "/body/originalRequestId", message: "is not the id of one of your requests" });
  } else if (
    body.originalRequestPaymentReference !== undefined &&
    body.originalRequestPaymentReference !== original.paymentReference
  ) {
    issues.push({
      path: "/body/originalRequestPaymentReference",
      message: `must be the payment reference of originalRequestId, ${original.paymentReference}`,
    });
  }
  if (issues.length > 0 || !original) throw validationFailed(issues);
  return original;
}

/**
 * Creates one request: the same record, reference and events as the requests of a secure payment,
 * plus what this body adds (recurrence, crypto-to-fiat, receipt details). The request is then paid,
 * reported and announced like any other.
 */
export async function createRequest(
  ctx: DomainContext,
  { principal, body }: OperationInput<"createRequest">,
): Promise<Schemas["RequestCreated"]> {
  const isCryptoToFiatAvailable = body.isCryptoToFiatAvailable ?? false;
  if (body.payee === undefined && !isCryptoToFiatAvailable) {
    throw validationFailed([
      { path: "/body/payee", message: "is required unless isCryptoToFiatAvailable is true" },
    ]);
  }
  const now = ctx.clock.now();
  if (body.recurrence) readStartDate(body.recurrence.startDate, now, "/body/recurrence/startDate");
  const plan = planRequest(
    {
      payee: body.payee ?? sandboxOffRampAddress,
      amount: body.amount,
      invoiceCurrency: body.invoiceCurrency,
      paymentCurrency: body.paymentCurrency,
    },
    "/body",
  );
  const created: RequestRecord = {
    ...createRequestRecord(plan, {
      accountId: principal.accountId,
      now,
      securePaymentToken: null,
      ...callerClientScope(principal),
    }),
    payer: body.payer === undefined ? null : checksummed(body.payer),
    recurrence: body.recurrence ?? null,
    isRecurrenceStopped: false,
    isCryptoToFiatAvailable,
    customerInfo: readCustomerInfo(body.customerInfo),
    reference: body.reference ?? null,
  };
  return ctx.store.withTransaction(async (tx) => {
    const original = await loadOriginal(tx, principal, body);
    const request: RequestRecord = {
      ...created,
      originalRequestId: original?.requestId ?? null,
      originalRequestPaymentReference: original?.paymentReference ?? null,
      // Only a first period issues the later ones.
      recurringInvoiceOf: created.recurrence && !original ? principal.accountId : null,
    };
    await storeNewRequest(tx, request, { securePaymentToken: null }, now.toISOString());
    // The next period of a recurring invoice: receivers file it under the original.
    if (original) await appendRequestRecurring(tx, request, original, now);
    return { requestId: request.requestId, paymentReference: request.paymentReference };
  });
}
