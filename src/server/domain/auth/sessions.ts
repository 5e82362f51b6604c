import { hashSessionToken, newSessionToken } from "../../auth/sessions.ts";
import { newUlid } from "../../ids.ts";
import { invalidState } from "../../problems.ts";
import type { SessionRecord, UserRecord } from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import type { DomainContext } from "../shared/context.ts";
import type { Caller } from "../shared/principal.ts";
import type { Schemas } from "../shared/wire-types.ts";

/**
 * The Auth API's sessions run on the server's base clock, not on an account's sandbox clock:
 * moving a sandbox clock changes payments, never who is signed in.
 */
export function authNow(ctx: Pick<DomainContext, "baseClock">): Date {
  return ctx.baseClock.now();
}

/** A new user, with a sandbox account of its own (no API key: it acts through its sessions). */
export function newUser(
  login: Pick<UserRecord, "login" | "email" | "walletAddress" | "passwordHash">,
  now: Date,
): UserRecord {
  const id = newUlid(now);
  return { id: `usr_${id}`, accountId: `acct_${id}`, ...login, createdAt: now.toISOString() };
}

/** Stores a new session of `user` and answers it with its token, which is stored only hashed. */
export async function putSession(
  ctx: DomainContext,
  tx: StoreOperations,
  user: UserRecord,
  token: string,
  now: Date,
): Promise<SessionRecord> {
  const session: SessionRecord = {
    tokenHash: hashSessionToken(token),
    userId: user.id,
    accountId: user.accountId,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + ctx.auth.sessionLifetimeSeconds * 1000).toISOString(),
  };
  await tx.sessions.put(session);
  return session;
}

/**
 * Opens a session for the user the transaction `findUser` finds or creates: the session is
 * stored in the same transaction, and the cookie set once it committed.
 */
export async function openSession(
  ctx: DomainContext,
  now: Date,
  findUser: (tx: StoreOperations) => Promise<UserRecord>,
): Promise<Schemas["AuthSession"]> {
  const token = newSessionToken();
  const { user, session } = await ctx.store.withTransaction(async (tx) => {
    const user = await findUser(tx);
    return { user, session: await putSession(ctx, tx, user, token, now) };
  });
  ctx.cookies.open(token, new Date(session.expiresAt));
  return toWireSession(user, session);
}

export function toWireSession(user: UserRecord, session: SessionRecord): Schemas["AuthSession"] {
  return {
    userId: user.id,
    accountId: user.accountId,
    email: user.email,
    walletAddress: user.walletAddress,
    expiresAt: session.expiresAt,
  };
}

/** Registering or signing in with a password while signed in is refused, as on the service. */
export function refuseSignedIn(caller: Caller): void {
  if (caller.kind === "session") {
    throw invalidState("This call already has a valid session: log out first (POST /v1/auth/logout).");
  }
}
