import { invalidState } from "../../problems.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadOwnRequest } from "../shared/own-records.ts";
import { periodsDue } from "../shared/recurrence.ts";

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
    const now = ctx.clock.now();
    const resumed = request.isRecurrenceStopped === true && !body.isRecurrenceStopped;
    await tx.requests.put({
      ...request,
      isRecurrenceStopped: body.isRecurrenceStopped,
      // Periods that started while stopped are skipped: the next one recurs after the resume.
      ...(resumed
        ? {
            recurrencePeriodsIssued: Math.max(request.recurrencePeriodsIssued ?? 0, periodsDue(request, now)),
          }
        : {}),
      updatedAt: now.toISOString(),
    });
  });
  return undefined;
}
