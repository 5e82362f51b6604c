import { invalidState } from "../../problems.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadOwnRequest } from "../shared/own-records.ts";

/** Stops or resumes the recurrence of one of the caller's recurring requests; answers no body. */
export async function updateRequest(
  ctx: DomainContext,
  { principal, path: { requestId }, body }: OperationInput<"updateRequest">,
): Promise<undefined> {
  await ctx.store.withTransaction(async (tx) => {
    const request = await loadOwnRequest(tx, principal, requestId);
    if (!request.recurrence) {
      throw invalidState(
        `Request ${requestId} has no recurrence to stop or resume; create it with recurrence to make it recurring.`,
      );
    }
    await tx.requests.put({
      ...request,
      isRecurrenceStopped: body.isRecurrenceStopped,
      updatedAt: ctx.clock.now().toISOString(),
    });
  });
  return undefined;
}
