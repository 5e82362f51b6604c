import { describeFetchFailure } from "../net/describe-fetch-failure.ts";
import { type HttpAnswer, requestText } from "../net/http-request.ts";
import type { SpecOperation } from "../spec/operations.ts";
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
