import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadOwnRequestByReference } from "../shared/own-records.ts";
import { buildPayCalldata } from "../shared/pay-calldata.ts";
import type { Schemas } from "../shared/wire-types.ts";

/**
 * `GET /v1/request/{paymentReference}/pay`: the calldata `GET /v2/request/{requestId}/pay`
 * answers for the same request and query, without a fee or an off-ramp.
 */
export async function getPayCalldataV1(
  ctx: DomainContext,
  { principal, path: { paymentReference }, query }: OperationInput<"getPayCalldataV1">,
): Promise<Schemas["PayCalldata"] | Schemas["CrossChainPayCalldata"]> {
  const request = await loadOwnRequestByReference(ctx.store, principal, paymentReference);
  return buildPayCalldata(ctx, { principal, path: { requestId: request.requestId }, query, body: undefined });
}
