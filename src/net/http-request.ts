import http from "node:http";
import https from "node:https";
import zlib from "node:zlib";

/**
 * An answer's headers, read by name as the Fetch API's `Headers` reads them. Not a `Headers`
 * itself: the first one a process makes loads Node's fetch, some 50 ms of CPU, which a command
 * that sends its requests here never needs.
 */
export interface AnswerHeaders {
  /** The header's values joined by ", ", as `Headers.get` gives them; null when absent. */
  get(name: string): string | null;
  /** Each Set-Cookie header's value, in order. */
  getSetCookie(): string[];
}

/** A whole answer: its status, its headers and its body as text. */
export interface HttpAnswer {
  status: number;
  headers: AnswerHeaders;
  text: string;
}

export interface HttpRequestOptions {
  method: string;
  headers: Record<string, string>;
  /** Sent with its Content-Length; no body, no Content-Length. */
  body?: string | undefined;
  /** Time limit for the whole exchange; when it runs out the request fails with a TimeoutError. */
  timeoutMs: number;
}

/** Connections kept open between requests, one pool per scheme; idle ones keep no process alive. */
const agents = {
  "http:": new http.Agent({ keepAlive: true }),
  "https:": new https.Agent({ keepAlive: true }),
};

/** The error of a request whose time limit ran out, named as fetch's AbortSignal.timeout names its own. */
class RequestTimeoutError extends Error {
  override name = "TimeoutError";
}

const utf8 = new TextDecoder();

/** A body as sent: servers may compress an answer even when not asked to. */
export function decodedBody(body: Buffer, contentEncoding: string | undefined): Buffer {
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

export function headersOf(rawHeaders: string[]): AnswerHeaders {
  const values = new Map<string, string[]>();
  for (let index = 0; index + 1 < rawHeaders.length; index += 2) {
    const name = (rawHeaders[index] as string).toLowerCase();
    const list = values.get(name);
    if (list) list.push(rawHeaders[index + 1] as string);
    else values.set(name, [rawHeaders[index + 1] as string]);
  }
  return {
    get: (name) => values.get(name.toLowerCase())?.join(", ") ?? null,
    getSetCookie: () => [...(values.get("set-cookie") ?? [])],
  };
}

/**
 * Sends one HTTP(S) request and reads the whole answer, as fetch with `redirect: "manual"` would:
 * a redirect is an answer, a compressed body is decoded, the text is UTF-8. On node:http rather
 * than fetch for the tools that send thousands of requests (the contract suite, the tests): fetch's
 * streams and abort signals cost a millisecond of CPU per request more. A connection that fails
 * rejects with the socket's own error (its `code`, such as ECONNREFUSED).
 */
export async function requestText(url: URL, options: HttpRequestOptions): Promise<HttpAnswer> {
  try {
    return await sendOnce(url, options);
  } catch (error) {
    // A kept-alive connection the server closed as it was reused: the request never reached the
    // server, and is sent again once on a new connection (as Node's documentation advises): not
    // on another pooled one, which the server may have closed at the same moment.
    if (error instanceof ReusedConnectionReset) return sendOnce(url, options, { freshConnection: true });
    throw error;
  }
}

/** A reset of a kept-alive connection at its reuse, before any of the answer arrived. */
class ReusedConnectionReset extends Error {}

function sendOnce(
  url: URL,
  options: HttpRequestOptions,
  { freshConnection = false } = {},
): Promise<HttpAnswer> {
  const headers = { ...options.headers };
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  if (body) headers["content-length"] = String(body.length);
  const secure = url.protocol === "https:";
  return new Promise<HttpAnswer>((resolve, reject) => {
    const outgoing = (secure ? https : http).request(
      url,
      {
        method: options.method,
        headers,
        // `false`: a connection of its own, outside the pool, closed after the answer.
        agent: freshConnection ? false : agents[secure ? "https:" : "http:"],
      },
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
    const timer = setTimeout(() => outgoing.destroy(new RequestTimeoutError()), options.timeoutMs);
    // The request closes once its answer is read, on a kept-alive connection too, or when it fails.
    outgoing.on("close", () => clearTimeout(timer));
    let answered = false;
    outgoing.on("response", () => {
      answered = true;
    });
    outgoing.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        outgoing.reusedSocket && !answered && error.code === "ECONNRESET"
          ? new ReusedConnectionReset(error.message, { cause: error })
          : error,
      ),
    );
    outgoing.end(body);
  });
}
