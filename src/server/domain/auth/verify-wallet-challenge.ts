import { verifyMessage } from "viem";
import { invalidField, ProblemError } from "../../problems.ts";
import type { WalletChallengeRecord } from "../../store/records.ts";
import type { StoreOperations } from "../../store/store.ts";
import type { DomainContext } from "../shared/context.ts";
import type { OperationInput } from "../shared/operation-types.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { authNow, newUser, openSession } from "./sessions.ts";

const unauthorized = (detail: string) => new ProblemError("unauthorized", detail);

/** The challenge as it stands, refused when unknown, not the one the body describes, used or expired. */
async function loadOpenChallenge(
  store: Pick<StoreOperations, "walletChallenges">,
  body: OperationInput<"verifyWalletChallenge">["body"],
  now: Date,
): Promise<WalletChallengeRecord> {
  const challenge = await store.walletChallenges.get(body.challengeId);
  if (!challenge)
    throw unauthorized("The challenge is unknown: ask for one with POST /v1/auth/wallet/challenge.");
  if (challenge.nonce !== body.nonce) throw invalidField("/body/nonce", "is not the challenge's nonce");
  if (challenge.message !== body.message) {
    throw invalidField("/body/message", "is not the challenge's message, exactly as it was issued");
  }
  if (challenge.usedAt !== null) {
    throw unauthorized(`The challenge was already used at ${challenge.usedAt}; ask for a new one.`);
  }
  if (Date.parse(challenge.expiresAt) <= now.getTime()) {
    throw unauthorized(`The challenge expired at ${challenge.expiresAt}; ask for a new one.`);
  }
  return challenge;
}

/**
 * Signs a wallet in: its signature of the challenge's message is checked (an EOA's
 * `personal_sign`, recovered with viem), the challenge is used up, and the wallet's user, made
 * with a sandbox account of its own at its first sign-in, gets a session.
 */
export async function verifyWalletChallenge(
  ctx: DomainContext,
  { body }: OperationInput<"verifyWalletChallenge">,
): Promise<Schemas["AuthSession"]> {
  const now = authNow(ctx);
  const challenge = await loadOpenChallenge(ctx.store, body, now);
  const signature = (
    body.signature.startsWith("0x") ? body.signature : `0x${body.signature}`
  ) as `0x${string}`;
  const signed = await verifyMessage({
    address: challenge.address,
    message: challenge.message,
    signature,
  }).catch(() => false);
  if (!signed) throw unauthorized("The signature is not the challenge wallet's signature of its message.");
  return openSession(ctx, now, async (tx) => {
    // Read again in the transaction: of two verifications of one challenge, one signs in.
    const current = await loadOpenChallenge(tx, body, now);
    await tx.walletChallenges.put({ ...current, usedAt: now.toISOString() });
    const login = `wallet:${challenge.address}`;
    const known = await tx.users.first("login", login);
    if (known) return known;
    const user = newUser({ login, email: null, walletAddress: challenge.address, passwordHash: null }, now);
    await tx.users.put(user);
    return user;
  });
}
