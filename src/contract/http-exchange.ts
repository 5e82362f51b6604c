import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describeFetchFailure } from "../net/describe-fetch-failure.ts";
import { type HttpAnswer, requestText } from "../net/http-request.ts";
import type { SpecOperation } from "../spec/operations.ts";
import { freshSessionCookie } from "./target.ts";
import type { ContractRequest } from "./valid-inputs.ts";

/** What the server answered. */
export type Exchange = HttpAnswer;

/** Thrown when no HTTP answer arrived (connection refused, reset, timeout). */
export class NoAnswerError extends Error {
  override name = "NoAnswerError";
}

/** The URL of a request: the path template filled in, the query appended. */
export function buildUrl(baseUrl: string, operation: SpecOperation, request: ContractRequest): URL {
  const path = operation.key.replace(/\{([^}]+)\}/g, (_match, name: string) => {
    const value = request.path[name];
    if (value === undefined) throw new Error(`${operation.operationId}: no value for path parameter ${name}`);
    return encodeURIComponent(value);
  });
  const url = new URL(baseUrl.replace(/\/+$/, "") + path);
  for (const [name, value] of Object.entries(request.query)) url.searchParams.append(name, value);
  return url;
}

/**
 * Sends one request and reads the whole answer (requestText: a run sends well over a thousand
 * requests, which fetch would make cost half as much again).
 */
/** The suite could not open a session for a check: the check fails with this reason. */
export class SessionUnavailableError extends Error {
  override name = "SessionUnavailableError";
}

/** POSTs a JSON body to an Auth API path; answers the answer, or NoAnswerError naming the path. */
async function postJson(baseUrl: string, path: string, body: unknown, timeoutMs: number) {
  try {
    return await requestText(new URL(path, baseUrl), {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(body),
      timeoutMs,
    });
  } catch (error) {
    throw new NoAnswerError(`no answer from POST ${path}: ${describeFetchFailure(error, timeoutMs)}`);
  }
}

/**
 * A new session's `session_token=...` pair: signs a new wallet in (a key made for the call, never
 * printed) with `POST /v1/auth/wallet/challenge` and `POST /v1/auth/wallet/verify`, as an
 * integrator's first sign-in would. A wallet's session is accepted wherever a session is,
 * payee destinations included.
 */
async function openFreshSession(baseUrl: string, timeoutMs: number): Promise<string> {
  const wallet = privateKeyToAccount(generatePrivateKey());
  const issued = await postJson(
    baseUrl,
    "/v1/auth/wallet/challenge",
    { address: wallet.address, chainId: 1 },
    timeoutMs,
  );
  const challenge = issued.status === 201 ? (JSON.parse(issued.text) as Record<string, unknown>) : undefined;
  if (typeof challenge?.message !== "string") {
    throw new SessionUnavailableError(
      `could not open a session: POST /v1/auth/wallet/challenge answered ${issued.status} without a message to sign`,
    );
  }
  const signature = await wallet.signMessage({ message: challenge.message });
  const verified = await postJson(
    baseUrl,
    "/v1/auth/wallet/verify",
    { challengeId: challenge.challengeId, nonce: challenge.nonce, message: challenge.message, signature },
    timeoutMs,
  );
  const cookie = verified.headers.getSetCookie().find((value) => value.startsWith("session_token="));
  if (verified.status !== 200 || !cookie) {
    throw new SessionUnavailableError(
      `could not open a session: POST /v1/auth/wallet/verify answered ${verified.status} without a session cookie`,
    );
  }
  return cookie.split(";")[0] as string;
}

export async function sendRequest(
  baseUrl: string,
  operation: SpecOperation,
  request: ContractRequest,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<Exchange> {
  const url = buildUrl(baseUrl, operation, request);
  // The success's own media type first (text/csv for an export), then the JSON ones errors use.
  const successTypes = Object.keys(operation.responses?.[String(operation.successStatus)]?.content ?? {});
  const accepted = [...new Set([...successTypes, "application/json", "application/problem+json"])];
  const allHeaders: Record<string, string> = { accept: accepted.join(", ") };
  Object.assign(allHeaders, request.headers, headers);
  if (allHeaders.cookie === freshSessionCookie)
    allHeaders.cookie = await openFreshSession(baseUrl, timeoutMs);
  if (request.body) allHeaders["content-type"] = request.body.contentType;
  const body = request.body?.text;
  try {
    return await requestText(url, { method: operation.method, headers: allHeaders, body, timeoutMs });
  } catch (error) {
    // scripts/contract.ts counts reasons starting with "no answer" to stop against a server that is down.
    throw new NoAnswerError(
      `no answer from ${operation.method} ${url.pathname}: ${describeFetchFailure(error, timeoutMs)}`,
    );
  }
}
