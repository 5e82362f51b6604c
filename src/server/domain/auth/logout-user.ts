import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import type { Schemas } from "../shared/wire-types.ts";

/** Ends the caller's session: its token is refused from now on, and the cookie is cleared. */
export async function logoutUser(
  ctx: DomainContext,
  { principal }: OperationInput<"logoutUser">,
): Promise<Schemas["AuthLoggedOut"]> {
  // The operation accepts a session only: authenticate answered 401 to anything else.
  if (principal.kind === "session") {
    const { tokenHash } = principal.session;
    await ctx.store.withTransaction((tx) => tx.sessions.delete(tokenHash));
  }
  ctx.cookies.clear();
  return { loggedOut: true };
}
