import { loadAccountClock } from "../../account-clock.ts";
import { isSandboxInstant, type SandboxClock, sandboxClockRange } from "../../clock.ts";
import { invalidField } from "../../problems.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { issueDueRequestPeriods } from "./request-periods.ts";

function toWireClock(clock: SandboxClock): Schemas["SandboxClock"] {
  return { now: clock.now().toISOString(), offsetSeconds: clock.offsetMs / 1000 };
}

export function getSandboxClock(ctx: DomainContext): Schemas["SandboxClock"] {
  return toWireClock(ctx.clock);
}

const whole = (epochMs: number) => new Date(epochMs).toISOString().replace(".000Z", "Z");
const rangeWords = `from ${whole(sandboxClockRange.earliest)} up to, not including, ${whole(sandboxClockRange.end)}`;

/** Moves `clock` as `body` asks; a move that would leave the sandbox's range is a 400 and leaves it as it was. */
function moveClock(clock: SandboxClock, body: OperationInput<"setSandboxClock">["body"]): void {
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
}

/**
 * Moves the caller's account's sandbox clock by `advanceSeconds` or to `now`, and keeps where it
 * stands in the store; other accounts' clocks stay where they are. The clock is read, checked,
 * moved and saved in one transaction: two moves at once both count, and a refused one saves nothing.
 * The later periods of recurring requests the move passes are created in the same transaction.
 */
export async function setSandboxClock(
  ctx: DomainContext,
  { principal: { accountId }, body }: OperationInput<"setSandboxClock">,
): Promise<Schemas["SandboxClock"]> {
  const moved = await ctx.store.withTransaction(async (tx) => {
    const clock = await loadAccountClock(tx, ctx.baseClock, accountId);
    moveClock(clock, body);
    await tx.sandboxClocks.put({ accountId, offsetMs: clock.offsetMs });
    await issueDueRequestPeriods(tx, accountId, clock.now());
    return clock;
  });
  return toWireClock(moved);
}
