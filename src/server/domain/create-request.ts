import type { Address } from "viem";
import type { OperationInput } from "../operations/operation-types.ts";
import { type ValidationIssue, validationFailed } from "../problems.ts";
import type { RequestRecord } from "../store/records.ts";
import type { StoreOperations } from "../store/store.ts";
import type { DomainContext } from "./context.ts";
import { readCustomerInfo } from "./customer-info.ts";
import type { Principal } from "./principal.ts";
import { readStartDate } from "./recurrence.ts";
import { createRequestRecord, planRequest, storeNewRequest } from "./requests.ts";
import { checksummed } from "./wallet-book.ts";
import type { Schemas } from "./wire-types.ts";

/**
 * Stands for the service's off-ramp in the sandbox: a crypto-to-fiat request without a payee is
 * paid to it, as the service pays its off-ramp before the fiat leg. A made-up address.
 */
export const sandboxOffRampAddress: Address = "0xc59D435887F5955731b31386fE4E487d3eeE8516";

type CreateRequestBody = OperationInput<"createRequest">["body"];

/** The recurring invoice this period continues: one of the caller's requests, by id and reference. */
async function checkOriginal(tx: StoreOperations, principal: Principal, body: CreateRequestBody) {
  const issues: ValidationIssue[] = [];
  if (body.originalRequestId !== undefined) {
    const original = await tx.getRequest(body.originalRequestId);
    if (!original || original.accountId !== principal.accountId) {
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
  }
  if (issues.length > 0) throw validationFailed(issues);
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
  const request: RequestRecord = {
    ...createRequestRecord(plan, { accountId: principal.accountId, now, securePaymentToken: null }),
    payer: body.payer === undefined ? null : checksummed(body.payer),
    recurrence: body.recurrence ?? null,
    isRecurrenceStopped: false,
    isCryptoToFiatAvailable,
    customerInfo: readCustomerInfo(body.customerInfo),
    reference: body.reference ?? null,
    originalRequestId: body.originalRequestId ?? null,
    originalRequestPaymentReference: body.originalRequestPaymentReference ?? null,
  };
  await ctx.store.withTransaction(async (tx) => {
    await checkOriginal(tx, principal, body);
    await storeNewRequest(tx, request, { securePaymentToken: null }, now.toISOString());
  });
  return { requestId: request.requestId, paymentReference: request.paymentReference };
}
