import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { createPayout } from "./create-payout.ts";

/**
 * `POST /v1/pay`: a one-off payout, as `POST /v2/payouts` creates it from the same members,
 * answered with the request's identifier in both spellings the v1 API uses.
 */
export async function createPayoutV1(
  ctx: DomainContext,
  { principal, body }: OperationInput<"createPayoutV1">,
): Promise<Schemas["PayoutCalldataV1"]> {
  const payout = await createPayout(ctx, { principal, path: {}, query: {}, body });
  // No recurrence in a v1 body: the answer is always a one-off payout's calldata.
  if ("recurringPaymentPermit" in payout) throw new Error("a one-off payout's calldata expected");
  return { ...payout, requestID: payout.requestId };
}
