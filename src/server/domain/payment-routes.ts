import type { OperationInput } from "../operations/operation-types.ts";
import { notFound } from "../problems.ts";
import { percentageToFraction } from "./amounts.ts";
import type { DomainContext } from "./context.ts";
import { resolveFee } from "./fees.ts";
import { paymentTokenOf } from "./requests.ts";
import type { Schemas } from "./wire-types.ts";

/**
 * The routes for a request found by payment reference (with or without `0x`). The sandbox knows
 * no bridges: it offers the direct payment in the request's own currency and network, with the
 * fee of `feePercentage` as a fraction.
 */
export async function listPaymentRoutes(
  ctx: DomainContext,
  { principal, path: { paymentReference }, query }: OperationInput<"listPaymentRoutes">,
): Promise<Schemas["PaymentRoutes"]> {
  const reference = `0x${paymentReference.replace(/^0x/, "").toLowerCase()}`;
  const request = await ctx.store.findRequestByPaymentReference(reference);
  if (!request) throw notFound(`No request has the payment reference ${reference}.`);
  const fee = resolveFee(query, principal, "/query");
  const token = paymentTokenOf(request);
  return {
    routes: [
      {
        id: "REQUEST_NETWORK_PAYMENT",
        fee: fee.feePercentage === undefined ? 0 : percentageToFraction(fee.feePercentage),
        speed: "FAST",
        price_impact: 0,
        chain: request.network.toUpperCase(),
        token: token.symbol,
      },
    ],
  };
}
