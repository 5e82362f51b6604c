import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { createRequest } from "./create-request.ts";

/**
 * `POST /v1/request`: the same request `POST /v2/request` creates from the same members, answered
 * in the v1 form (`requestID`), so that either path reads it.
 */
export async function createRequestV1(
  ctx: DomainContext,
  { principal, body }: OperationInput<"createRequestV1">,
): Promise<Schemas["RequestCreatedV1"]> {
  const created = await createRequest(ctx, { principal, path: {}, query: {}, body });
  return { paymentReference: created.paymentReference, requestID: created.requestId };
}
