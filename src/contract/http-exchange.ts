import http from "node:http";
import https from "node:https";
import zlib from "node:zlib";
import { describeFetchFailure } from "../cli/describe-fetch-failure.ts";
import type { SpecOperation } from "../spec/operations.ts";
import type { ContractRequest } from "./valid-inputs.ts";

/** What the server answered. */
export interface Exchange {
  status: number;
  headers: Headers;
  text: string;
}

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

/** Connections kept open between checks, one pool per scheme; idle ones do not keep a run alive. */
const agents = {
  "http:": new http.Agent({ keepAlive: true }),
  "https:": new https.Agent({ keepAlive: true }),
};

/** Thrown when the time limit of a request ran out; describeFetchFailure names the limit. */
class RequestTimeoutError extends Error {
  override name = "TimeoutError";
}

/** A body as sent: servers may compress an answer even when not asked to. */
function decodedBody(body: Buffer, contentEncoding: string | undefined): Buffer {
  switch (contentEncoding?.trim().toLowerCase()) {
    case "gzip":
    case "x-gzip":
      return zlib.gunzipSync(body);
    case "deflate":
      return zlib.inflateSync(body);
    case "br":
      return zlib.brotliDecompressSync(body);
    default:
      return body;
  }
}

function headersOf(rawHeaders: string[]): Headers {
  const headers = new Headers();
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    headers.append(rawHeaders[index] as string, rawHeaders[index + 1] as string);
  }
  return headers;
}

/**
 * Sends one request and reads the whole answer. node:http rather than fetch: a run sends well over
 * a thousand requests, and fetch's streams and abort signals cost a third of the run's CPU.
 * Redirects are answers, as fetch's `redirect: "manual"` makes them.
 */
export async function sendRequest(
  baseUrl: string,
  operation: SpecOperation,
  request: ContractRequest,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<Exchange> {
  const url = buildUrl(baseUrl, operation, request);
  const allHeaders: Record<string, string> = { accept: "application/json, application/problem+json" };
  Object.assign(allHeaders, request.headers, headers);
  const body = request.body ? Buffer.from(request.body.text) : undefined;
  if (request.body && body) {
    allHeaders["content-type"] = request.body.contentType;
    allHeaders["content-length"] = String(body.length);
  }
  try {
    return await new Promise<Exchange>((resolve, reject) => {
      const secure = url.protocol === "https:";
      const outgoing = (secure ? https : http).request(
        url,
        { method: operation.method, headers: allHeaders, agent: agents[secure ? "https:" : "http:"] },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
          incoming.on("error", reject);
          incoming.on("end", () => {
            try {
              const bytes = decodedBody(Buffer.concat(chunks), incoming.headers["content-encoding"]);
              resolve({
                status: incoming.statusCode ?? 0,
                headers: headersOf(incoming.rawHeaders),
                text: utf8.decode(bytes),
              });
            } catch (error) {
              reject(error);
            }
          });
        },
      );
      const timer = setTimeout(() => outgoing.destroy(new RequestTimeoutError()), timeoutMs);
      outgoing.on("close", () => clearTimeout(timer));
      outgoing.on("error", reject);
      outgoing.end(body);
    });
  } catch (error) {
    // scripts/contract.ts counts reasons starting with "no answer" to stop against a server that is down.
    throw new NoAnswerError(
      `no answer from ${operation.method} ${url.pathname}: ${describeFetchFailure(error, timeoutMs)}`,
    );
  }
}

const utf8 = new TextDecoder();
