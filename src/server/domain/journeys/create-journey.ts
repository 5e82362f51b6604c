import { newUlid } from "../../ids.ts";
import { invalidField } from "../../problems.ts";
import type { JourneyRecord } from "../../store/records.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { findOwnRequest } from "../shared/own-records.ts";
import type { Schemas } from "../shared/wire-types.ts";

/** Starts a journey of the caller's account, following one of its requests or none. */
export async function createJourney(
  ctx: DomainContext,
  { principal, body }: OperationInput<"createJourney">,
): Promise<Schemas["JourneyCreated"]> {
  const now = ctx.clock.now();
  const journey: JourneyRecord = {
    id: newUlid(now),
    accountId: principal.accountId,
    requestId: body.requestId ?? null,
    createdAt: now.toISOString(),
  };
  await ctx.store.withTransaction(async (tx) => {
    if (body.requestId !== undefined && !(await findOwnRequest(tx, principal, body.requestId))) {
      throw invalidField("/body/requestId", `is not a request of this account, got ${body.requestId}`);
    }
    await tx.journeys.put(journey);
  });
  return { journeyId: journey.id };
}
