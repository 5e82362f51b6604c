import { ProblemError } from "../../problems.ts";
import type { StoreOperations } from "../../store/store.ts";
import type { Principal } from "./principal.ts";

const walletSessionRequired =
  "This operation acts for a wallet: sign in with POST /v1/auth/wallet/challenge and POST /v1/auth/wallet/verify.";

/** The wallet a session signed in with (lower case), or 403 for a session of an email address. */
export async function sessionWallet(
  store: Pick<StoreOperations, "users">,
  principal: Principal,
): Promise<`0x${string}`> {
  const user = principal.kind === "session" ? await store.users.get(principal.session.userId) : undefined;
  if (!user?.walletAddress) throw new ProblemError("forbidden", walletSessionRequired);
  return user.walletAddress.toLowerCase() as `0x${string}`;
}

/** Whether a wallet address is the signed-in wallet, whatever its letter case. */
export const isWallet = (address: string, wallet: string) => address.toLowerCase() === wallet.toLowerCase();

/** 403 for a destination of the account that another wallet of it registered. */
export function notOwned(destinationId: string): ProblemError {
  return new ProblemError(
    "forbidden",
    `The payee destination ${destinationId} is not the signed-in wallet's: sign in with its wallet.`,
  );
}
