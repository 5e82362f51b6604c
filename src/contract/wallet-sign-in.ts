import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import type { SpecOperation } from "../spec/operations.ts";
import { isObject } from "../spec/spec-document.ts";
import { judgeAnswer } from "./answer-verdict.ts";
import { exchange, type SuiteContext, type Verdict } from "./check-kit.ts";

const jsonRequest = (body: unknown) => ({
  path: {},
  query: {},
  headers: {},
  body: { contentType: "application/json", text: JSON.stringify(body) },
});

/**
 * Signs a new wallet in: asks for a challenge, signs its message with a key made for the check,
 * verifies (200 with a session cookie), then sends the same signature again (401: a challenge is
 * used once).
 */
export async function signInWithNewWallet(
  context: SuiteContext,
  challenge: SpecOperation,
  verify: SpecOperation,
): Promise<Verdict> {
  const wallet = privateKeyToAccount(generatePrivateKey());
  const issued = await exchange(context, challenge, jsonRequest({ address: wallet.address, chainId: 1 }), {});
  const challengeIssues = judgeAnswer(context.validator, challenge, issued, [201]);
  if (challengeIssues.length > 0)
    return { issues: challengeIssues.map((issue) => `challenge: ${issue}`), summary: "" };
  const body = JSON.parse(issued.text) as unknown;
  if (!isObject(body) || typeof body.message !== "string")
    return { issues: ["challenge: no message"], summary: "" };
  const signature = await wallet.signMessage({ message: body.message });
  const signed = jsonRequest({
    challengeId: body.challengeId,
    nonce: body.nonce,
    message: body.message,
    signature,
  });
  const verified = await exchange(context, verify, signed, {});
  const issues = judgeAnswer(context.validator, verify, verified, [200]).map((issue) => `verify: ${issue}`);
  if (!verified.headers.getSetCookie().some((cookie) => cookie.startsWith("session_token="))) {
    issues.push("verify: no session_token cookie was set");
  }
  const again = await exchange(context, verify, signed, {});
  issues.push(
    ...judgeAnswer(context.validator, verify, again, [401]).map((issue) => `verify again: ${issue}`),
  );
  return {
    issues,
    summary: "signed in with a new wallet, then the same challenge again -> 401",
    status: again.status,
  };
}
