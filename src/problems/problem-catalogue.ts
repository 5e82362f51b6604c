import type { components } from "../../generated/schema.d.ts";

/**
 * Who answers a problem type: the reference server, a webhook receiver, `payreq webhooks listen`,
 * or `payreq proxy`.
 */
export type ProblemSource = "server" | "receiver" | "listener" | "proxy";

/**
 * Every problem type payreq answers, one entry per `type`, so that the server, the webhook
 * receiver and the CLI listener spell each alike. `by` says who answers it; the server's are
 * listed in openapi/description.md, the receiver's in docs/webhooks.md, the listener's in
 * docs/cli.md. The module imports nothing from Node, so that receivers can run anywhere.
 */
export const problemCatalogue = {
  validationFailed: {
    type: "/problems/validation-failed",
    title: "Validation failed",
    status: 400,
    by: ["server", "receiver"],
  },
  malformedJson: {
    type: "/problems/malformed-json",
    title: "Malformed JSON",
    status: 400,
    by: ["server", "receiver", "listener"],
  },
  malformedRequest: {
    type: "/problems/malformed-request",
    title: "Malformed request",
    status: 400,
    by: ["server"],
  },
  invalidState: { type: "/problems/invalid-state", title: "Invalid state", status: 400, by: ["server"] },
  unauthorized: { type: "/problems/unauthorized", title: "Unauthorized", status: 401, by: ["server"] },
  invalidSignature: {
    type: "/problems/invalid-signature",
    title: "Invalid signature",
    status: 401,
    by: ["receiver", "listener"],
  },
  originNotAllowed: {
    type: "/problems/origin-not-allowed",
    title: "Origin not allowed",
    status: 403,
    by: ["server"],
  },
  forbidden: { type: "/problems/forbidden", title: "Forbidden", status: 403, by: ["server"] },
  securePaymentNotPayable: {
    type: "/problems/secure-payment-not-payable",
    title: "Secure payment not payable",
    status: 403,
    by: ["server"],
  },
  notFound: { type: "/problems/not-found", title: "Not found", status: 404, by: ["server"] },
  methodNotAllowed: {
    type: "/problems/method-not-allowed",
    title: "Method not allowed",
    status: 405,
    by: ["server"],
  },
  requestTimeout: {
    type: "/problems/request-timeout",
    title: "Request timeout",
    status: 408,
    by: ["server"],
  },
  securePaymentCompleted: {
    type: "/problems/secure-payment-completed",
    title: "Secure payment completed",
    status: 409,
    by: ["server"],
  },
  alreadyExists: {
    type: "/problems/already-exists",
    title: "Already exists",
    status: 409,
    by: ["server"],
  },
  deliveryInProgress: {
    type: "/problems/delivery-in-progress",
    title: "Delivery in progress",
    status: 409,
    by: ["receiver"],
  },
  payloadTooLarge: {
    type: "/problems/payload-too-large",
    title: "Payload too large",
    status: 413,
    by: ["server", "receiver", "listener"],
  },
  unsupportedMediaType: {
    type: "/problems/unsupported-media-type",
    title: "Unsupported media type",
    status: 415,
    by: ["server", "receiver", "listener"],
  },
  securePaymentInProgress: {
    type: "/problems/secure-payment-in-progress",
    title: "Secure payment in progress",
    status: 423,
    by: ["server"],
  },
  headersTooLarge: {
    type: "/problems/headers-too-large",
    title: "Request headers too large",
    status: 431,
    by: ["server"],
  },
  rateLimited: { type: "/problems/rate-limited", title: "Too many requests", status: 429, by: ["server"] },
  internalError: {
    type: "/problems/internal-error",
    title: "Internal error",
    status: 500,
    by: ["server", "receiver"],
  },
  receiverMisconfigured: {
    type: "/problems/receiver-misconfigured",
    title: "Webhook receiver misconfigured",
    status: 500,
    by: ["receiver"],
  },
  // The server's database cannot be reached or did not answer in time, or a change kept conflicting
  // with concurrent changes of the same records: retry after Retry-After.
  serviceUnavailable: {
    type: "/problems/service-unavailable",
    title: "Service unavailable",
    status: 503,
    by: ["server"],
  },
  concurrentChanges: {
    type: "/problems/concurrent-changes",
    title: "Too many concurrent changes",
    status: 503,
    by: ["server"],
  },
  // The CLI listener's answers when the endpoint it forwards to fails or does not answer in time.
  forwardFailed: { type: "/problems/forward-failed", title: "Bad Gateway", status: 502, by: ["listener"] },
  forwardTimeout: {
    type: "/problems/forward-timeout",
    title: "Gateway Timeout",
    status: 504,
    by: ["listener"],
  },
  // The validating proxy's answers when the upstream cannot be reached or does not answer in time.
  upstreamUnreachable: {
    type: "/problems/upstream-unreachable",
    title: "Bad Gateway",
    status: 502,
    by: ["proxy"],
  },
  upstreamTimeout: {
    type: "/problems/upstream-timeout",
    title: "Gateway Timeout",
    status: 504,
    by: ["proxy"],
  },
} as const satisfies Record<
  string,
  { type: string; title: string; status: number; by: readonly ProblemSource[] }
>;

export type ProblemKind = keyof typeof problemCatalogue;

/** The reason phrase of each status of the catalogue, as node:http's STATUS_CODES spells it. */
export const reasonPhrases: Readonly<Record<number, string>> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  409: "Conflict",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  423: "Locked",
  429: "Too Many Requests",
  431: "Request Header Fields Too Large",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
  504: "Gateway Timeout",
};

/** A validation issue: a JSON Pointer (`/body/...`, `/query/...`, `/path/...`, `/headers/...`) and what is wrong. */
export type ProblemIssue = components["schemas"]["ValidationIssue"];

/** An RFC 9457 Problem Details body as the spec's Problem schema has it; a receiver's `401` adds `reason`. */
export type ProblemBody = components["schemas"]["Problem"] & {
  /** Why a webhook signature was rejected. */
  reason?: string;
};

export interface ProblemContext {
  instance?: string | undefined;
  requestId?: string | undefined;
  issues?: ProblemIssue[] | undefined;
  reason?: string | undefined;
  /** A stable code naming the failure, where the service's own body carries one. */
  code?: string | undefined;
}

/** The one function that builds every error body: server, webhook receiver and CLI listener. */
export function buildProblem(kind: ProblemKind, detail: string, context: ProblemContext = {}): ProblemBody {
  const { type, title, status } = problemCatalogue[kind];
  const body: ProblemBody = {
    type,
    title,
    status,
    detail,
    ...(context.instance === undefined ? {} : { instance: context.instance }),
    statusCode: status,
    error: reasonPhrases[status] ?? title,
    message: detail,
    ...(context.requestId === undefined ? {} : { requestId: context.requestId }),
    ...(context.reason === undefined ? {} : { reason: context.reason }),
    ...(context.code === undefined ? {} : { code: context.code }),
  };
  if (context.issues && context.issues.length > 0) body.errors = context.issues;
  return body;
}
