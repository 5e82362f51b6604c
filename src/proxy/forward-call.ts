import http from "node:http";
import https from "node:https";
import { describeFetchFailure } from "../net/describe-fetch-failure.ts";

/** The answer of the upstream, as received: status, raw headers and body bytes. */
export interface UpstreamAnswer {
  reached: true;
  status: number;
  statusMessage: string;
  /** Name, value, name, value... as node:http received them, hop-by-hop headers removed. */
  rawHeaders: string[];
  body: Buffer;
}

/** No answer: the upstream could not be reached (502) or did not answer in time (504). */
export interface UpstreamFailure {
  reached: false;
  status: 502 | 504;
  reason: string;
}

export interface OutgoingCall {
  method: string;
  /** The path and query as the client sent them. */
  url: string;
  rawHeaders: string[];
  body: Buffer;
}

/** Headers of one connection, not of the message (RFC 9110, 7.6.1): never passed on. */
const hopByHop = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authenticate",
  "proxy-authorization",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/** The raw headers without the hop-by-hop ones, those the Connection header names included. */
export function endToEndHeaders(rawHeaders: readonly string[]): string[] {
  const dropped = new Set(hopByHop);
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    if ((rawHeaders[index] as string).toLowerCase() !== "connection") continue;
    for (const name of (rawHeaders[index + 1] as string).split(",")) dropped.add(name.trim().toLowerCase());
  }
  const kept: string[] = [];
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const name = rawHeaders[index] as string;
    if (!dropped.has(name.toLowerCase())) kept.push(name, rawHeaders[index + 1] as string);
  }
  return kept;
}

class UpstreamTimeout extends Error {
  override name = "TimeoutError";
}

const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };

/**
 * Sends the call to the upstream with the client's method, path, query, headers (Host set to the
 * upstream's, hop-by-hop ones dropped) and body bytes, and reads the whole answer. `upstream` may
 * have a base path, which comes before the client's path. The time limit covers the whole answer.
 */
export function forwardCall(
  upstream: URL,
  call: OutgoingCall,
  timeoutMs: number,
): Promise<UpstreamAnswer | UpstreamFailure> {
  const secure = upstream.protocol === "https:";
  // Host names the upstream; Content-Length is set anew for the bytes sent, which were read whole.
  const pairs: string[] = [];
  const source = endToEndHeaders(call.rawHeaders);
  for (let index = 0; index + 1 < source.length; index += 2) {
    const name = (source[index] as string).toLowerCase();
    if (name === "host" || name === "content-length") continue;
    pairs.push(source[index] as string, source[index + 1] as string);
  }
  pairs.push("Host", upstream.host);
  if (call.body.length > 0 || call.method === "POST" || call.method === "PUT" || call.method === "PATCH") {
    pairs.push("Content-Length", String(call.body.length));
  }
  const basePath = upstream.pathname.replace(/\/+$/, "");
  return new Promise((resolve) => {
    const outgoing = (secure ? https : http).request({
      protocol: upstream.protocol,
      hostname: upstream.hostname.replace(/^\[(.*)\]$/, "$1"),
      port: upstream.port || (secure ? 443 : 80),
      method: call.method,
      path: basePath + call.url,
      headers: pairs,
      agent: secure ? agents.https : agents.http,
    });
    let timedOut = false;
    // A failure before the answer or in the middle of its body: resolving again changes nothing.
    const fail = (error: unknown) =>
      resolve({
        reached: false,
        status: timedOut ? 504 : 502,
        reason: describeFetchFailure(timedOut ? new UpstreamTimeout() : error, timeoutMs),
      });
    const timer = setTimeout(() => {
      timedOut = true;
      outgoing.destroy(new UpstreamTimeout());
    }, timeoutMs);
    outgoing.on("close", () => clearTimeout(timer));
    outgoing.on("error", fail);
    outgoing.on("response", (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
      incoming.on("error", fail);
      incoming.on("close", () => {
        if (!incoming.complete) fail(new Error("the upstream closed the connection before the whole answer"));
      });
      incoming.on("end", () =>
        resolve({
          reached: true,
          status: incoming.statusCode ?? 0,
          statusMessage: incoming.statusMessage ?? "",
          rawHeaders: endToEndHeaders(incoming.rawHeaders),
          body: Buffer.concat(chunks),
        }),
      );
    });
    outgoing.end(call.body);
  });
}
