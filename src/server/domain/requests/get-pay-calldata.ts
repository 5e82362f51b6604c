import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { buildPayCalldata } from "../shared/pay-calldata.ts";
import type { Schemas } from "../shared/wire-types.ts";

/** `GET /v2/request/{requestId}/pay`: the calldata that pays one request, as `buildPayCalldata` builds it. */
export function getPayCalldata(
  ctx: DomainContext,
  input: OperationInput<"getPayCalldata">,
): Promise<Schemas["PayCalldata"] | Schemas["CrossChainPayCalldata"]> {
  return buildPayCalldata(ctx, input);
}
