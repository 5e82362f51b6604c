import { type Clock, SandboxClock } from "./clock.ts";
import type { StoreOperations } from "./store/store.ts";

/**
 * The sandbox clock of one account: the base clock plus the offset the account's moves left in
 * the store (none at first). Every server instance on the store reads the same clock.
 */
export async function loadAccountClock(
  store: Pick<StoreOperations, "sandboxClocks">,
  base: Clock,
  accountId: string,
): Promise<SandboxClock> {
  const stored = await store.sandboxClocks.get(accountId);
  return new SandboxClock(base, stored?.offsetMs ?? 0);
}
