import { InvalidValueError } from "../wire/payreq-error.ts";
import { answerReadFailure, type RawBodyRead, readRawBody, type StreamedRequest } from "./read-raw-body.ts";
import { createWebhookReceiver, type WebhookReceiverOptions } from "./receive.ts";
import { sendAnswer, type WebhookHttpResponse } from "./send-answer.ts";
import { isRawBody } from "./sign.ts";

export const defaultWebhookBodyLimitBytes = 1_048_576;

export interface WebhookMiddlewareOptions extends WebhookReceiverOptions {
  /** The largest body accepted, in bytes; larger ones answer 413. Default 1 MiB. */
  limitBytes?: number;
}

/**
 * What the middleware uses of a request. Node's `IncomingMessage` and Express's `Request` fit;
 * declared here so that the package's types do not need @types/node.
 */
export interface WebhookHttpRequest extends StreamedRequest {
  /** Set by a body parser that ran before (Express). */
  body?: unknown;
  /** Set by a parser's `verify` hook that kept the bytes. */
  rawBody?: unknown;
}

/** Works as Express middleware and as a plain `node:http` request listener. It answers every request itself. */
export type WebhookMiddleware = (
  req: WebhookHttpRequest,
  res: WebhookHttpResponse,
  next?: (error?: unknown) => void,
) => void;

/**
 * Receives webhook deliveries on one route: reads the raw body (at most `limitBytes`, 413 above),
 * then answers as `createWebhookReceiver` does. Mount it before any JSON body parser, or give it
 * a route where none runs: a body parsed before it cannot be verified and is answered with a
 * 500 `/problems/receiver-misconfigured`, logged once. A `req.rawBody` kept by a parser's
 * `verify` hook is used when present.
 */
export function createWebhookMiddleware(options: WebhookMiddlewareOptions): WebhookMiddleware {
  const receive = createWebhookReceiver(options);
  const limit = options.limitBytes ?? defaultWebhookBodyLimitBytes;
  if (!Number.isSafeInteger(limit) || limit < 1) {
    throw new InvalidValueError("limitBytes", "a positive whole number of bytes", options.limitBytes);
  }

  return (req, res) => {
    void bodyOf(req, limit)
      .then((read) => {
        if (!read.ok) return answerReadFailure(read, limit);
        return receive({ headers: req.headers, rawBody: read.body });
      })
      .then((answer) => sendAnswer(res, answer))
      .catch(() => res.destroy());
  };
}

/** The body to verify: read here unless an earlier middleware already consumed the stream. */
async function bodyOf(
  req: WebhookHttpRequest,
  limit: number,
): Promise<RawBodyRead | { ok: true; body: unknown }> {
  if (!req.readableEnded && req.body === undefined) return readRawBody(req, limit);
  if (isRawBody(req.body)) return { ok: true, body: req.body };
  // A parser's verify hook may have kept the bytes (`req.rawBody = buffer`).
  if (isRawBody(req.rawBody)) return { ok: true, body: req.rawBody };
  return { ok: true, body: req.body };
}
