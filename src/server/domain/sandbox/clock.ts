import type { OperationInput } from "../../operations/operation-types.ts";
import type { DomainContext } from "../context.ts";
import type { Schemas } from "../wire-types.ts";

function toWireClock(ctx: DomainContext): Schemas["SandboxClock"] {
  return { now: ctx.clock.now().toISOString(), offsetSeconds: ctx.clock.offsetMs / 1000 };
}

export function getSandboxClock(ctx: DomainContext): Schemas["SandboxClock"] {
  return toWireClock(ctx);
}

/** Moves the sandbox clock by `advanceSeconds` or to `now`, for every caller at once. */
export function setSandboxClock(
  ctx: DomainContext,
  { body }: OperationInput<"setSandboxClock">,
): Schemas["SandboxClock"] {
  if (body.advanceSeconds !== undefined) ctx.clock.advance(body.advanceSeconds);
  else if (body.now !== undefined) ctx.clock.set(new Date(body.now));
  return toWireClock(ctx);
}
