import { verifyPassword } from "../../auth/passwords.ts";
import { ProblemError } from "../../problems.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { authNow, openSession, refuseSignedIn } from "./sessions.ts";

/** Signs in with an email address and password; one answer for a wrong address or password. */
export async function loginUser(
  ctx: DomainContext,
  { principal, body }: OperationInput<"loginUser">,
): Promise<Schemas["AuthSession"]> {
  refuseSignedIn(principal);
  const user = await ctx.store.users.first("login", `email:${body.email.toLowerCase()}`);
  if (!(await verifyPassword(user?.passwordHash ?? null, body.password)) || !user) {
    throw new ProblemError("unauthorized", "The email address or the password is wrong.");
  }
  return openSession(ctx, authNow(ctx), async () => user);
}
