import type { JourneyEventRecord } from "../../store/records.ts";
import type { Schemas } from "../shared/wire-types.ts";

/** A step's members as answered: the optional ones only when the processor reported them. */
export function toWireStep(event: JourneyEventRecord) {
  return {
    id: event.id,
    processorId: event.processorId,
    status: event.status,
    amount: event.amount,
    ...(event.currency !== null ? { currency: event.currency } : {}),
    ...(event.txReference !== null ? { txReference: event.txReference } : {}),
    processedAt: event.processedAt,
    ...(event.rawPayload !== undefined ? { rawPayload: event.rawPayload } : {}),
    ...(event.nextProcessorId !== null ? { nextProcessorId: event.nextProcessorId } : {}),
  } satisfies Omit<Schemas["JourneyEvent"], "stepIndex">;
}

/** The timeline order: by when each step was processed, then by when it was reported. */
export function byTimeline(a: JourneyEventRecord, b: JourneyEventRecord): number {
  return (
    Date.parse(a.processedAt) - Date.parse(b.processedAt) ||
    a.reportedAt.localeCompare(b.reportedAt) ||
    a.id.localeCompare(b.id)
  );
}
