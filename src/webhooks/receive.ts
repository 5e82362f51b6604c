import {
  buildProblem,
  type ProblemBody,
  type ProblemContext,
  type ProblemKind,
} from "../problems/problem-catalogue.ts";
import { isRecord } from "../wire/is-record.ts";
import { InvalidValueError } from "../wire/payreq-error.ts";
import { isWebhookEventName, normaliseWebhookEvent, type WebhookEvent } from "../wire/webhook-event.ts";
import { createMemoryDeliveryStore, type DeliveryClaim, type DeliveryStore } from "./dedupe-store.ts";
import { type HeaderSource, parseRetryCount, parseTestFlag, readHeader, webhookHeaders } from "./headers.ts";
import { answerProblem } from "./problems.ts";
import { assertUsableSecret, type WebhookSecret } from "./sign.ts";
import { checkWebhookSignature } from "./verify.ts";

/** What the service said about a delivery, from its headers (which the signature does not cover). */
export interface WebhookDelivery {
  /** `x-request-network-delivery`: the same on every retry of one delivery. */
  deliveryId: string;
  /** `x-request-network-retry-count`: 0 on the first attempt, up to 3; undefined if absent or not a number. */
  retryCount: number | undefined;
  /** `x-request-network-test: true`: a test delivery with placeholder values; change no state. */
  isTest: boolean;
}

/** A payload whose `event` is not one of `webhookEventNames`, passed on as received. */
export type UnknownWebhookPayload = Record<string, unknown> & { event: string };

export interface WebhookReceiverLogger {
  /** Configuration errors, failed handlers and stores. Never given the secret. */
  error(message: string, cause?: unknown): void;
  /** Rejected deliveries (bad signature, bad payload), when present. */
  warn?(message: string): void;
}

export interface WebhookReceiverOptions {
  /** The endpoint's signing secret. */
  secret: WebhookSecret;
  /** Called once per delivery with the verified, normalised event. Throw (or reject) to have it retried. */
  onEvent(event: WebhookEvent, delivery: WebhookDelivery): void | Promise<void>;
  /** Called for events this version does not know; without it they are acknowledged and skipped. */
  onUnknownEvent?(payload: UnknownWebhookPayload, delivery: WebhookDelivery): void | Promise<void>;
  /** Where processed delivery ids are kept: a bounded in-memory store unless given; `false` turns dedupe off. */
  dedupe?: DeliveryStore | false;
  /** Where errors go; `console` unless given. */
  logger?: WebhookReceiverLogger;
}

/** One delivery as received: its headers and its body exactly as it arrived. */
export interface IncomingWebhook {
  headers: HeaderSource;
  /** A string or the bytes; a parsed body is answered with a configuration error. */
  rawBody: unknown;
}

export interface WebhookAcknowledgement {
  received: true;
  /** Set when the delivery id was processed before and the handler was not called again. */
  duplicate?: true;
  /** Set when the event is unknown and no `onUnknownEvent` was given. */
  ignored?: string;
}

/** The answer to send: a status, its headers and a JSON body. */
export interface WebhookAnswer {
  status: number;
  headers: Record<string, string>;
  body: WebhookAcknowledgement | ProblemBody;
}

export type WebhookReceiver = (incoming: IncomingWebhook) => Promise<WebhookAnswer>;

const utf8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A framework-free receiver: verifies the signature (401), reads the delivery headers (400),
 * parses and normalises the payload (400), skips processed deliveries (200) and those in progress
 * (409), then calls the handler: 200 when it returns, 500 when it throws, and the delivery is
 * recorded as processed only in the first case. It never throws.
 */
export function createWebhookReceiver(options: WebhookReceiverOptions): WebhookReceiver {
  const { secret, onEvent, onUnknownEvent } = checkOptions(options);
  const store = options.dedupe === false ? undefined : (options.dedupe ?? createMemoryDeliveryStore());
  const logger = options.logger ?? console;
  let misconfigurationLogged = false;

  const reject = (kind: ProblemKind, detail: string, extra: ProblemContext = {}) => {
    logger.warn?.(`webhook rejected: ${detail}`);
    return answerProblem(buildProblem(kind, detail, extra));
  };

  const processOnce = async (
    delivery: WebhookDelivery,
    handle: () => void | Promise<void>,
  ): Promise<WebhookAnswer> => {
    const { deliveryId } = delivery;
    let claim: DeliveryClaim;
    try {
      claim = store ? await store.claim(deliveryId) : "claimed";
    } catch (error) {
      logger.error(`webhook delivery ${deliveryId}: the delivery store failed to claim it`, error);
      return answerProblem(
        buildProblem("internalError", "The delivery store failed; the delivery was not processed."),
      );
    }
    if (claim === "processed") return acknowledge({ received: true, duplicate: true });
    if (claim === "in_progress") {
      return answerProblem(
        buildProblem(
          "deliveryInProgress",
          `Delivery ${deliveryId} is being processed by an earlier attempt; retry later.`,
        ),
        { "retry-after": "1" },
      );
    }
    try {
      await handle();
    } catch (error) {
      logger.error(`webhook delivery ${deliveryId}: the event handler failed`, error);
      await settle(() => store?.release(deliveryId), `release delivery ${deliveryId}`);
      return answerProblem(
        buildProblem(
          "internalError",
          "The event handler failed; the delivery was not recorded as processed, so a retry will process it.",
        ),
      );
    }
    await settle(() => store?.markProcessed(deliveryId), `record delivery ${deliveryId} as processed`);
    return acknowledge({ received: true });
  };

  const settle = async (step: () => void | Promise<void>, what: string) => {
    try {
      await step();
    } catch (error) {
      logger.error(`webhook: the delivery store failed to ${what}`, error);
    }
  };

  const receive = async ({ headers, rawBody }: IncomingWebhook): Promise<WebhookAnswer> => {
    const signature = checkWebhookSignature({
      secret,
      rawBody,
      signature: readHeader(headers, webhookHeaders.signature),
    });
    if (!signature.ok) {
      if (signature.reason === "body_not_raw") {
        if (!misconfigurationLogged) logger.error(`webhook receiver misconfigured: ${signature.message}`);
        misconfigurationLogged = true;
        return answerProblem(buildProblem("receiverMisconfigured", signature.message));
      }
      return reject("invalidSignature", signature.message, { reason: signature.reason });
    }
    const deliveryId = readHeader(headers, webhookHeaders.delivery);
    if (typeof deliveryId !== "string" || deliveryId === "") {
      const problem = Array.isArray(deliveryId) ? "must be sent once" : "is required";
      return reject("validationFailed", `The ${webhookHeaders.delivery} header ${problem}.`, {
        issues: [{ path: `/headers/${webhookHeaders.delivery}`, message: problem }],
      });
    }
    const delivery: WebhookDelivery = {
      deliveryId,
      retryCount: parseRetryCount(readHeader(headers, webhookHeaders.retryCount)),
      isTest: parseTestFlag(readHeader(headers, webhookHeaders.test)),
    };
    const parsed = parseBody(rawBody as string | Uint8Array);
    if (!parsed.ok) return reject("malformedJson", parsed.message);
    const payload = parsed.value;
    if (isRecord(payload) && typeof payload.event === "string" && !isWebhookEventName(payload.event)) {
      const unknown = payload as UnknownWebhookPayload;
      if (!onUnknownEvent) return acknowledge({ received: true, ignored: `unknown event ${unknown.event}` });
      return processOnce(delivery, () => onUnknownEvent(unknown, delivery));
    }
    let event: WebhookEvent;
    try {
      event = normaliseWebhookEvent(payload);
    } catch (error) {
      if (!(error instanceof InvalidValueError)) throw error;
      const path = error.field === "webhook payload" ? "/body" : `/body/${error.field}`;
      return reject("validationFailed", `The webhook payload is invalid: ${error.shortMessage}`, {
        issues: [{ path, message: error.shortMessage }],
      });
    }
    return processOnce(delivery, () => onEvent(event, delivery));
  };

  return async (incoming) => {
    try {
      return await receive(incoming);
    } catch (error) {
      logger.error("webhook receiver failed unexpectedly", error);
      return answerProblem(buildProblem("internalError", "The webhook receiver failed unexpectedly."));
    }
  };
}

function checkOptions(options: WebhookReceiverOptions): WebhookReceiverOptions {
  if (!isRecord(options)) throw new InvalidValueError("options", "an object", options);
  assertUsableSecret(options.secret);
  if (typeof options.onEvent !== "function") {
    throw new InvalidValueError("onEvent", "a function", options.onEvent);
  }
  if (options.onUnknownEvent !== undefined && typeof options.onUnknownEvent !== "function") {
    throw new InvalidValueError("onUnknownEvent", "a function", options.onUnknownEvent);
  }
  const { dedupe } = options;
  if (dedupe !== undefined && dedupe !== false) {
    for (const method of ["claim", "markProcessed", "release"] as const) {
      if (typeof dedupe?.[method] !== "function") {
        throw new InvalidValueError(`dedupe.${method}`, "a function (see DeliveryStore)", dedupe?.[method]);
      }
    }
  }
  return options;
}

/** A raw body as JSON (UTF-8 required for bytes), or why it is not. */
export function parseBody(
  rawBody: string | Uint8Array,
): { ok: true; value: unknown } | { ok: false; message: string } {
  let text: string;
  try {
    text = typeof rawBody === "string" ? rawBody : utf8.decode(rawBody);
  } catch {
    return { ok: false, message: "The body is not valid UTF-8; send it as UTF-8 JSON." };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return { ok: false, message: `The body is not valid JSON: ${(error as Error).message}.` };
  }
}

function acknowledge(body: WebhookAcknowledgement): WebhookAnswer {
  return { status: 200, headers: { "content-type": "application/json; charset=utf-8" }, body };
}
