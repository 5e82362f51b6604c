import { notFound } from "../../problems.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { findOwnRequest, findOwnSecurePayment } from "../shared/own-records.ts";
import { effectiveStatus } from "../shared/secure-payment-status.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { securePaymentLinkUrl } from "./secure-payment-links.ts";

/**
 * The secure payment holding a request of the caller's account, with its status by the sandbox
 * clock. 404 alike for an unknown request, another account's, and one no secure payment created.
 */
export async function findSecurePayment(
  ctx: DomainContext,
  { principal, query: { requestId } }: OperationInput<"findSecurePayment">,
): Promise<Schemas["SecurePaymentLookup"]> {
  const missing = `No secure payment of your account holds the request ${requestId}.`;
  const request = await findOwnRequest(ctx.store, principal, requestId);
  const token = request?.securePaymentToken;
  const record = token ? await findOwnSecurePayment(ctx.store, principal, token) : undefined;
  if (!request || !record) throw notFound(missing);
  const status = effectiveStatus(record, ctx.clock.now());
  return {
    token: record.token,
    securePaymentUrl: securePaymentLinkUrl(ctx.securePaymentPageUrl(), record.token),
    status,
    paymentType: record.requestIds.length === 1 ? "single" : "batch",
    requestIds: record.requestIds,
    network: request.network,
    currency: request.paymentCurrency,
    redirectUrl: record.redirectUrl,
    createdAt: record.createdAt,
    expiresAt: record.expiresAt,
    // A link changes only once, from pending: a completed one changed when its last request was paid.
    completedAt: status === "completed" ? record.updatedAt : null,
  };
}
