import { invalidState } from "../../problems.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadOwnRequestByReference } from "../shared/own-records.ts";

/**
 * `PATCH /v1/request/{paymentReference}/stop-recurrence`: stops the recurrence of one of the
 * caller's recurring requests, as `PATCH /v2/request/{requestId}` with `isRecurrenceStopped: true`.
 */
export async function stopRequestRecurrenceV1(
  ctx: DomainContext,
  { principal, path: { paymentReference } }: OperationInput<"stopRequestRecurrenceV1">,
): Promise<undefined> {
  await ctx.store.withTransaction(async (tx) => {
    const request = await loadOwnRequestByReference(tx, principal, paymentReference);
    if (!request.recurrence) {
      throw invalidState(
        `Request ${request.requestId} has no recurrence to stop; create it with recurrence to make it recurring.`,
      );
    }
    if (request.isRecurrenceStopped) return;
    await tx.requests.put({
      ...request,
      isRecurrenceStopped: true,
      updatedAt: ctx.clock.now().toISOString(),
    });
  });
  return undefined;
}
