import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { Answer, TestServer } from "../../helpers.ts";

/** The first test account of the standard test mnemonic: its key is public, for tests only. */
export const walletKey: Hex = "0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80";
/** The second account of the same mnemonic. */
export const otherWalletKey: Hex = "0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d";

/** The `session_token=...` pair of an answer's Set-Cookie, to send back as a Cookie header. */
export function sessionCookieOf(answer: Answer): string {
  const cookie = answer.headers.getSetCookie().find((value) => value.startsWith("session_token="));
  if (!cookie) throw new Error(`no session cookie was set: ${answer.status} ${answer.text}`);
  return cookie.split(";")[0] as string;
}

/** Call options that present a session cookie and nothing else. */
export const withSession = (cookie: string) => ({ auth: "none" as const, headers: { cookie } });

/** Asks for a challenge for the wallet of `privateKey`, and signs its message with the key. */
export async function signChallenge(server: TestServer, privateKey: Hex, chainId = 8453) {
  const account = privateKeyToAccount(privateKey);
  const challenge = await server.call("POST", "/v1/auth/wallet/challenge", {
    auth: "none",
    body: { address: account.address, chainId },
  });
  if (challenge.status !== 201) throw new Error(`challenge failed: ${challenge.text}`);
  const { challengeId, nonce, message } = challenge.body;
  const signature = await account.signMessage({ message });
  return { account, challengeId, nonce, message, signature, expiresAt: challenge.body.expiresAt };
}

/** Signs the wallet of `privateKey` in with a real signature; answers the session cookie and the session. */
export async function signInWithWallet(server: TestServer, privateKey: Hex = walletKey) {
  const { challengeId, nonce, message, signature } = await signChallenge(server, privateKey);
  const verified = await server.call("POST", "/v1/auth/wallet/verify", {
    auth: "none",
    body: { challengeId, nonce, message, signature },
  });
  if (verified.status !== 200) throw new Error(`verification failed: ${verified.text}`);
  return { cookie: sessionCookieOf(verified), session: verified.body };
}
