import { zeroAddress } from "viem";
import { invalidField, type ValidationIssue, validationFailed } from "../../problems.ts";
import type { RequestRecord } from "../../store/records.ts";
import { buildBatchPayment, toBatchAnswer } from "../shared/batch-payment.ts";
import type { DomainContext } from "../shared/context.ts";
import { resolveFee } from "../shared/fees.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { findOwnRequest } from "../shared/own-records.ts";
import { callerClientScope, type Principal } from "../shared/principal.ts";
import { createRequestRecord, planRequests, storeNewRequest } from "../shared/requests.ts";
import { checkWalletFunds } from "../shared/wallet-funds.ts";
import type { Schemas } from "../shared/wire-types.ts";

/**
 * The caller's requests of `requestIds`: each must be one of the caller's, appear once, and pay
 * on the network of the first. Unknown ids, and another account's, answer 400 rather than 404,
 * because the identifiers are in the body.
 */
async function loadExisting(
  ctx: DomainContext,
  principal: Principal,
  requestIds: string[],
): Promise<RequestRecord[]> {
  const issues: ValidationIssue[] = [];
  const seen = new Map<string, number>();
  const found: RequestRecord[] = [];
  let network: { index: number; name: string } | undefined;
  for (const [index, requestId] of requestIds.entries()) {
    const at = `/body/requestIds/${index}`;
    const earlier = seen.get(requestId);
    if (earlier !== undefined) {
      issues.push({ path: at, message: `repeats /body/requestIds/${earlier}; list each request once` });
      continue;
    }
    seen.set(requestId, index);
    const request = await findOwnRequest(ctx.store, principal, requestId);
    if (!request) {
      issues.push({ path: at, message: `is not the id of a request of your account, got ${requestId}` });
      continue;
    }
    if (!network) network = { index, name: request.network };
    else if (request.network !== network.name) {
      issues.push({
        path: at,
        message: `must pay on ${network.name} like the other requests of the batch, but pays on ${request.network}`,
      });
    }
    found.push(request);
  }
  if (issues.length > 0) throw validationFailed(issues);
  return found;
}

/**
 * Builds the calldata of a batch payout: new requests are created first (when `requests` is
 * sent), then one `batchPayments` call pays them all, after the approvals the wallet book says
 * the payer lacks.
 */
export async function createBatchPayout(
  ctx: DomainContext,
  { principal, body }: OperationInput<"createBatchPayout">,
): Promise<Schemas["BatchPayout"]> {
  const fee = resolveFee(body, principal, "/body");
  if (body.payer?.toLowerCase() === zeroAddress) {
    throw invalidField("/body/payer", "must not be the zero address: name the wallet that signs the batch");
  }
  let requests: RequestRecord[];
  if (body.requests) {
    const { plans } = planRequests(body.requests, "/body/requests");
    const now = ctx.clock.now();
    requests = plans.map((plan) =>
      createRequestRecord(plan, {
        accountId: principal.accountId,
        now,
        securePaymentToken: null,
        ...callerClientScope(principal),
        flow: "outgoing",
      }),
    );
  } else {
    requests = await loadExisting(ctx, principal, body.requestIds ?? []);
  }
  if (requests.length === 0) {
    throw validationFailed([{ path: "/body", message: "must contain requests or requestIds" }]);
  }
  const built = await buildBatchPayment(ctx, principal.accountId, requests, fee, body.payer);

  // Read the wallet book before anything is written, so that a failure leaves nothing behind.
  const funds =
    body.payer === undefined
      ? undefined
      : await checkWalletFunds(
          ctx,
          principal.accountId,
          body.payer,
          (requests[0] as RequestRecord).network,
          built.payments.map((payment) => ({
            token: payment.token,
            amount: payment.amount + payment.feeAmount,
          })),
          built.approvals.length + 1,
        );
  if (body.requests) {
    const now = ctx.clock.now().toISOString();
    await ctx.store.withTransaction(async (tx) => {
      for (const request of requests) {
        await storeNewRequest(tx, request, { securePaymentToken: null }, now);
      }
    });
  }

  const answer = {
    ...toBatchAnswer(built),
    requests: requests.map((request) => ({
      requestId: request.requestId,
      paymentReference: request.paymentReference,
      payee: request.payee,
      amount: request.invoiceAmount,
      invoiceCurrency: request.invoiceCurrency,
      paymentCurrency: request.paymentCurrency,
    })),
  };
  if (funds === undefined) return answer;
  return { ...answer, metadata: { ...funds, canMakePayment: funds.hasEnoughBalance && funds.hasEnoughGas } };
}
