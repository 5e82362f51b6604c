import { randomBytes } from "node:crypto";
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

/**
 * A new session's `session_token=...` pair: registers a new user with a random email address and
 * password (neither is ever printed), as an integrator's first sign-in would.
 */
async function openFreshSession(baseUrl: string, timeoutMs: number): Promise<string> {
  const url = new URL("/v1/auth/register", baseUrl);
  const body = JSON.stringify({
    email: `contract-suite-${randomBytes(8).toString("hex")}@example.com`,
    password: randomBytes(18).toString("base64url"),
  });
  let answer: Awaited<ReturnType<typeof requestText>>;
  try {
    answer = await requestText(url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body,
      timeoutMs,
    });
  } catch (error) {
    throw new NoAnswerError(
      `no answer from POST /v1/auth/register: ${describeFetchFailure(error, timeoutMs)}`,
    );
  }
  const cookie = answer.headers.getSetCookie().find((value) => value.startsWith("session_token="));
  if (answer.status !== 201 || !cookie) {
    throw new SessionUnavailableError(
      `could not open a session: POST /v1/auth/register answered ${answer.status} without a session cookie`,
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
