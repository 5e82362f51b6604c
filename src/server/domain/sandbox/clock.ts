import { loadAccountClock } from "../../account-clock.ts";
import type { SandboxClock } from "../../clock.ts";
import type { OperationInput } from "../../operations/operation-types.ts";
import type { DomainContext } from "../context.ts";
import type { Schemas } from "../wire-types.ts";

function toWireClock(clock: SandboxClock): Schemas["SandboxClock"] {
  return { now: clock.now().toISOString(), offsetSeconds: clock.offsetMs / 1000 };
}

export function getSandboxClock(ctx: DomainContext): Schemas["SandboxClock"] {
  return toWireClock(ctx.clock);
}

/**
 * Moves the caller's account's sandbox clock by `advanceSeconds` or to `now`, and keeps where it
 * stands in the store; other accounts' clocks stay where they are.
 */
export async function setSandboxClock(
  ctx: DomainContext,
  { principal: { accountId }, body }: OperationInput<"setSandboxClock">,
): Promise<Schemas["SandboxClock"]> {
  const moved = await ctx.store.withTransaction(async (tx) => {
    // Read again inside the transaction: two moves at once both count.
    const clock = await loadAccountClock(tx, ctx.baseClock, accountId);
    if (body.advanceSeconds !== undefined) clock.advance(body.advanceSeconds);
    else if (body.now !== undefined) clock.set(new Date(body.now));
    await tx.putSandboxClock({ accountId, offsetMs: clock.offsetMs });
    return clock;
  });
  return toWireClock(moved);
}
