import { newUlid } from "../../ids.ts";
import type { JourneyEventRecord } from "../../store/records.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadOwnJourneyByIdOrReference } from "../shared/own-records.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { toWireStep } from "./journey-wire.ts";

/** Records a step of one of the caller's journeys, named by its id or by a step's txReference. */
export async function createJourneyEvent(
  ctx: DomainContext,
  { principal, path: { journeyId: idOrReference }, body }: OperationInput<"createJourneyEvent">,
): Promise<Schemas["JourneyEventRecorded"]> {
  const now = ctx.clock.now();
  const step = await ctx.store.withTransaction(async (tx) => {
    const journey = await loadOwnJourneyByIdOrReference(tx, principal, idOrReference);
    const record: JourneyEventRecord = {
      id: newUlid(now),
      accountId: principal.accountId,
      journeyId: journey.id,
      processorId: principal.accountId,
      status: body.status,
      amount: body.amount,
      currency: body.currency ?? null,
      txReference: body.txReference ?? null,
      processedAt: new Date(body.processedAt).toISOString(),
      ...(body.rawPayload !== undefined ? { rawPayload: body.rawPayload } : {}),
      nextProcessorId: body.nextProcessorId ?? null,
      reportedAt: now.toISOString(),
    };
    await tx.journeyEvents.put(record);
    return record;
  });
  return { ...toWireStep(step), journeyId: step.journeyId };
}
