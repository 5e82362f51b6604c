import { isSandboxInstant, sandboxClockRange } from "../../clock.ts";
import type { OperationInput } from "../../operations/operation-types.ts";
import { invalidField } from "../../problems.ts";
import type { DomainContext } from "../context.ts";
import type { Schemas } from "../wire-types.ts";

function toWireClock(ctx: DomainContext): Schemas["SandboxClock"] {
  return { now: ctx.clock.now().toISOString(), offsetSeconds: ctx.clock.offsetMs / 1000 };
}

export function getSandboxClock(ctx: DomainContext): Schemas["SandboxClock"] {
  return toWireClock(ctx);
}

const whole = (epochMs: number) => new Date(epochMs).toISOString().replace(".000Z", "Z");
const rangeWords = `from ${whole(sandboxClockRange.earliest)} up to, not including, ${whole(sandboxClockRange.end)}`;

/**
 * Moves the sandbox clock by `advanceSeconds` or to `now`, for every caller at once. A move that
 * would leave the sandbox's range is a 400 and leaves the clock as it was.
 */
export function setSandboxClock(
  ctx: DomainContext,
  { body }: OperationInput<"setSandboxClock">,
): Schemas["SandboxClock"] {
  const { clock } = ctx;
  if (body.advanceSeconds !== undefined) {
    const target = clock.now().getTime() + body.advanceSeconds * 1000;
    if (!isSandboxInstant(target)) {
      throw invalidField(
        "/body/advanceSeconds",
        `must keep the clock ${rangeWords}, got ${body.advanceSeconds} (to ${new Date(target).toISOString()})`,
      );
    }
    clock.advance(body.advanceSeconds);
  } else if (body.now !== undefined) {
    // Date.parse gives NaN for instants that do not exist, such as a leap second.
    const target = Date.parse(body.now);
    if (!isSandboxInstant(target)) {
      throw invalidField(
        "/body/now",
        `must be a real instant ${rangeWords}, got ${JSON.stringify(body.now)}`,
      );
    }
    clock.set(new Date(target));
  }
  return toWireClock(ctx);
}
