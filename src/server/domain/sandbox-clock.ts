import type { SandboxClock } from "../clock.ts";
import type { Schemas } from "./wire-types.ts";

export function readSandboxClock(clock: SandboxClock): Schemas["SandboxClock"] {
  return { now: clock.now().toISOString(), offsetSeconds: clock.offsetMs / 1000 };
}

/** Moves the sandbox clock by `advanceSeconds` or to `now`, for every caller at once. */
export function moveSandboxClock(
  clock: SandboxClock,
  body: Schemas["SandboxClockUpdate"],
): Schemas["SandboxClock"] {
  if (body.advanceSeconds !== undefined) clock.advance(body.advanceSeconds);
  else if (body.now !== undefined) clock.set(new Date(body.now));
  return readSandboxClock(clock);
}
