import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { buildProblem } from "../../problems/problem-catalogue.ts";
import { parseRetryCount, parseTestFlag, webhookHeaders } from "../../webhooks/headers.ts";
import { defaultWebhookBodyLimitBytes } from "../../webhooks/middleware.ts";
import { answerProblem } from "../../webhooks/problems.ts";
import { answerReadFailure, readRawBody } from "../../webhooks/read-raw-body.ts";
import { parseBody } from "../../webhooks/receive.ts";
import { sendAnswer } from "../../webhooks/send-answer.ts";
import { checkWebhookSignature, type SignatureCheck } from "../../webhooks/verify.ts";
import { type ForwardOutcome, forwardDelivery } from "./forward-delivery.ts";

/** One delivery the listener received, as verified and answered. */
export interface ReceivedDelivery {
  receivedAt: Date;
  /** From the body, which is only trusted once `signature.ok`. */
  event: string | undefined;
  requestId: string | undefined;
  deliveryId: string | undefined;
  retryCount: number | undefined;
  test: boolean;
  signature: SignatureCheck;
  /** The status the listener answered the sender with. */
  status: number;
  /** What the integrator's endpoint answered; absent without --forward-to or for rejected deliveries. */
  forward: ForwardOutcome | undefined;
  rawBody: Uint8Array;
  /** The body parsed as JSON; undefined when it is not JSON. */
  payload: unknown;
}

export interface WebhookListenerOptions {
  port: number;
  host: string;
  /** The signing secret to verify with; undefined until known (deliveries then get 503). */
  secret: () => string | undefined;
  /** The integrator's endpoint to pass verified deliveries on to. */
  forwardTo: string | undefined;
  forwardTimeoutMs: number;
  onDelivery(delivery: ReceivedDelivery): void;
}

export interface RunningWebhookListener {
  /** The URL to register as the webhook endpoint. */
  url: string;
  close(): Promise<void>;
}

/** The path the listener is registered under; it accepts deliveries on any path. */
const listenerPath = "/webhooks";

/** A local receiver on node:http that verifies each delivery, reports it and answers or forwards it. */
export async function startWebhookListener(options: WebhookListenerOptions): Promise<RunningWebhookListener> {
  const server = createServer((req, res) => {
    handle(req, res, options).catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
      res.end(`payreq webhook listener failed: ${error instanceof Error ? error.message : String(error)}\n`);
    });
  });
  server.listen(options.port, options.host);
  await Promise.race([
    once(server, "listening"),
    once(server, "error").then(([error]) => Promise.reject(error)),
  ]);
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host}:${port}${listenerPath}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function handle(
  req: IncomingMessage,
  res: ServerResponse,
  options: WebhookListenerOptions,
): Promise<void> {
  if (req.method !== "POST") {
    req.resume();
    const isGet = req.method === "GET" || req.method === "HEAD";
    res.writeHead(isGet ? 200 : 405, { "content-type": "text/plain; charset=utf-8", allow: "GET, POST" });
    res.end("payreq webhook listener: the service POSTs deliveries here.\n");
    return;
  }
  const secret = options.secret();
  if (secret === undefined) {
    req.resume();
    res.writeHead(503, { "content-type": "text/plain; charset=utf-8", "retry-after": "1" });
    res.end("payreq webhook listener: not ready yet.\n");
    return;
  }
  const read = await readRawBody(req, defaultWebhookBodyLimitBytes);
  if (!read.ok) {
    sendAnswer(res, answerReadFailure(read, defaultWebhookBodyLimitBytes));
    return;
  }
  const rawBody = read.body;
  const signature = checkWebhookSignature({
    secret,
    rawBody,
    signature: req.headers[webhookHeaders.signature],
  });
  const parsed = parseBody(rawBody);
  const payload = parsed.ok ? parsed.value : undefined;
  const body = typeof payload === "object" && payload !== null ? (payload as Record<string, unknown>) : {};
  const delivery: Omit<ReceivedDelivery, "status" | "forward"> = {
    receivedAt: new Date(),
    event: stringOf(body.event),
    requestId: stringOf(body.requestId) ?? stringOf(body.requestID),
    deliveryId: stringOf(req.headers[webhookHeaders.delivery]),
    retryCount: parseRetryCount(req.headers[webhookHeaders.retryCount]),
    test: parseTestFlag(req.headers[webhookHeaders.test]),
    signature,
    rawBody,
    payload,
  };

  if (!signature.ok) {
    sendProblem(res, "invalidSignature", signature.message, { reason: signature.reason });
    options.onDelivery({ ...delivery, status: 401, forward: undefined });
    return;
  }
  if (options.forwardTo !== undefined) {
    const forward = await forwardDelivery(
      options.forwardTo,
      rawBody,
      req.rawHeaders,
      options.forwardTimeoutMs,
    );
    if (forward.reached) {
      res.writeHead(forward.status, forward.contentType ? { "content-type": forward.contentType } : {});
      res.end(forward.body);
    } else {
      const kind = forward.status === 502 ? "forwardFailed" : "forwardTimeout";
      sendProblem(res, kind, `${options.forwardTo}: ${forward.reason}`);
    }
    options.onDelivery({ ...delivery, status: forward.status, forward });
    return;
  }
  if (payload === undefined) {
    sendProblem(res, "malformedJson", "The body is not UTF-8 JSON.");
    options.onDelivery({ ...delivery, status: 400, forward: undefined });
    return;
  }
  res.writeHead(200, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify({ received: true }));
  options.onDelivery({ ...delivery, status: 200, forward: undefined });
}

/** Answers with the receiver's Problem Details of that kind. */
function sendProblem(res: ServerResponse, ...problem: Parameters<typeof buildProblem>): void {
  sendAnswer(res, answerProblem(buildProblem(...problem)));
}

function stringOf(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined;
}
