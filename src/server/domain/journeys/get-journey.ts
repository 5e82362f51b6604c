import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import { loadOwnJourney } from "../shared/own-records.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { byTimeline, toWireStep } from "./journey-wire.ts";

/** One of the caller's journeys with its steps in timeline order. */
export async function getJourney(
  ctx: DomainContext,
  { principal, path: { journeyId } }: OperationInput<"getJourney">,
): Promise<Schemas["Journey"]> {
  const journey = await loadOwnJourney(ctx.store, principal, journeyId);
  const steps = (await ctx.store.journeyEvents.find("journey", journey.id)).items.sort(byTimeline);
  return {
    id: journey.id,
    requestId: journey.requestId,
    createdAt: journey.createdAt,
    events: steps.map((step, index) => ({ ...toWireStep(step), stepIndex: index + 1 })),
  };
}
