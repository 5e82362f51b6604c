import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { describeNetworkError } from "../../net/describe-network-error.ts";
import { guardedLookup, hostOf, refuseLiteralHost } from "./target-guard.ts";

/** The most of a receiver's answer ever read: enough for a short error text, never a huge body. */
export const responseExcerptLimitBytes = 512;

export interface WebhookPost {
  url: string;
  /** The exact bytes to send; the signature header was computed over them. */
  body: Buffer;
  headers: Record<string, string>;
  timeoutMs: number;
  /** Refuse every non-public target (checking the resolved addresses): false only for allow-listed ones. */
  blockPrivateTargets: boolean;
  /** Aborts the attempt when the server stops; the result is then `stopped`. */
  stopSignal: AbortSignal;
}

export interface WebhookPostResult {
  /** The receiver's status code; null when no answer arrived. */
  statusCode: number | null;
  /** Why no answer arrived (timeout, connection error, blocked target); null otherwise. */
  error: string | null;
  responseExcerpt: string | null;
  /** The server stopped during the attempt: it says nothing about the receiver. */
  stopped: boolean;
}

function describeError(error: NodeJS.ErrnoException): string {
  if (error.code === "EBLOCKEDTARGET") return `target refused: ${error.message}`;
  return describeNetworkError(error);
}

/**
 * One POST of a webhook, without following redirects (a 3xx is an answer like any other) and
 * without keeping the connection. The timeout covers the whole exchange; of the answer, only the
 * status and at most `responseExcerptLimitBytes` are read before the connection is dropped.
 */
export function postWebhook(post: WebhookPost): Promise<WebhookPostResult> {
  try {
    return send(post, new URL(post.url));
  } catch (error) {
    // A request node:http refuses to build (a bad header or URL) fails this attempt, not the worker.
    const message = error instanceof Error ? error.message : String(error);
    return Promise.resolve({ statusCode: null, error: message, responseExcerpt: null, stopped: false });
  }
}

function send(post: WebhookPost, target: URL): Promise<WebhookPostResult> {
  if (post.blockPrivateTargets) {
    const refused = refuseLiteralHost(hostOf(target));
    if (refused) {
      return Promise.resolve({
        statusCode: null,
        error: `target refused: ${refused}`,
        responseExcerpt: null,
        stopped: false,
      });
    }
  }
  const controller = new AbortController();
  // Built before anything else starts, so that a request node:http refuses leaves nothing running.
  const request = (target.protocol === "https:" ? httpsRequest : httpRequest)(target, {
    method: "POST",
    headers: { ...post.headers, "content-length": String(post.body.length) },
    agent: false,
    signal: controller.signal,
    ...(post.blockPrivateTargets ? { lookup: guardedLookup } : {}),
  });
  return new Promise((resolve) => {
    let why: "timeout" | "stopped" | undefined;
    let statusCode: number | null = null;
    const chunks: Buffer[] = [];
    let received = 0;
    let settled = false;

    const finish = (error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      post.stopSignal.removeEventListener("abort", onStop);
      request.destroy();
      const excerpt = chunks.length > 0 ? Buffer.concat(chunks).toString("utf8") : null;
      resolve({
        statusCode,
        // Once the status arrived the attempt is judged by it, whatever happens to the rest.
        error: statusCode === null ? error : null,
        responseExcerpt: excerpt,
        stopped: why === "stopped" && statusCode === null,
      });
    };
    const onStop = () => {
      why = "stopped";
      controller.abort();
    };
    const timer = setTimeout(() => {
      why = "timeout";
      controller.abort();
    }, post.timeoutMs);

    request.on("response", (response: IncomingMessage) => {
      statusCode = response.statusCode ?? null;
      response.on("data", (chunk: Buffer) => {
        const room = responseExcerptLimitBytes - received;
        chunks.push(chunk.subarray(0, room));
        received += Math.min(chunk.length, room);
        if (received >= responseExcerptLimitBytes) finish(null);
      });
      response.on("end", () => finish(null));
      response.on("error", () => finish(null));
      response.on("close", () => finish(null));
    });
    request.on("error", (error: NodeJS.ErrnoException) => {
      if (why === "timeout") return finish(`timeout: no answer within ${post.timeoutMs} ms`);
      if (why === "stopped") return finish("stopped: the server is closing");
      finish(describeError(error));
    });
    if (post.stopSignal.aborted) onStop();
    else post.stopSignal.addEventListener("abort", onStop, { once: true });
    request.end(post.body);
  });
}
