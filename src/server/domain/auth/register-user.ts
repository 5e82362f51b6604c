import { hashPassword } from "../../auth/passwords.ts";
import { invalidField } from "../../problems.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { authNow, newUser, openSession, refuseSignedIn } from "./sessions.ts";

/** Registers an email address with a new sandbox account, and signs it in. */
export async function registerUser(
  ctx: DomainContext,
  { principal, body }: OperationInput<"registerUser">,
): Promise<Schemas["AuthSession"]> {
  refuseSignedIn(principal);
  const email = body.email.toLowerCase();
  // Hashed before the transaction: a repeated transaction does not hash again.
  const passwordHash = await hashPassword(body.password);
  const now = authNow(ctx);
  return openSession(ctx, now, async (tx) => {
    const login = `email:${email}`;
    if (await tx.users.first("login", login)) {
      throw invalidField("/body/email", "is already registered; sign in with POST /v1/auth/login");
    }
    const user = newUser({ login, email, walletAddress: null, passwordHash }, now);
    await tx.users.put(user);
    return user;
  });
}
