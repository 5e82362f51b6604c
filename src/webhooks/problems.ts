/** The problem types a receiver answers; the shared ones keep the service's `type` URIs. */
export const receiverProblems = {
  validationFailed: { type: "/problems/validation-failed", title: "Validation failed", status: 400 },
  malformedJson: { type: "/problems/malformed-json", title: "Malformed JSON", status: 400 },
  invalidSignature: { type: "/problems/invalid-signature", title: "Invalid signature", status: 401 },
  deliveryInProgress: { type: "/problems/delivery-in-progress", title: "Delivery in progress", status: 409 },
  payloadTooLarge: { type: "/problems/payload-too-large", title: "Payload too large", status: 413 },
  unsupportedMediaType: {
    type: "/problems/unsupported-media-type",
    title: "Unsupported media type",
    status: 415,
  },
  handlerFailed: { type: "/problems/internal-error", title: "Internal error", status: 500 },
  receiverMisconfigured: {
    type: "/problems/receiver-misconfigured",
    title: "Webhook receiver misconfigured",
    status: 500,
  },
  // The CLI listener's answers when the endpoint it forwards to fails or does not answer in time.
  forwardFailed: { type: "/problems/forward-failed", title: "Bad Gateway", status: 502 },
  forwardTimeout: { type: "/problems/forward-timeout", title: "Gateway Timeout", status: 504 },
} as const;

// The reason phrases of node:http's STATUS_CODES, kept here so the module imports nothing from Node.
const reasonPhrases: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  409: "Conflict",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  500: "Internal Server Error",
  502: "Bad Gateway",
  504: "Gateway Timeout",
};

export type ReceiverProblemKind = keyof typeof receiverProblems;

export interface ReceiverProblemIssue {
  /** `/headers/...` or `/body/...`, a JSON Pointer to the offending value. */
  path: string;
  message: string;
}

/** An RFC 9457 Problem Details body with the members the service's clients read. */
export interface ReceiverProblem {
  type: string;
  title: string;
  status: number;
  detail: string;
  statusCode: number;
  error: string;
  message: string;
  /** Why a signature was rejected, on `401` answers. */
  reason?: string;
  errors?: ReceiverProblemIssue[];
}

/** The one function that builds the receiver's error bodies. */
export function buildReceiverProblem(
  kind: ReceiverProblemKind,
  detail: string,
  extra: { reason?: string; errors?: ReceiverProblemIssue[] } = {},
): ReceiverProblem {
  const { type, title, status } = receiverProblems[kind];
  return {
    type,
    title,
    status,
    detail,
    statusCode: status,
    error: reasonPhrases[status] ?? title,
    message: detail,
    ...extra,
  };
}

/** A problem as an answer: its status, `application/problem+json` and any extra headers. */
export function answerProblem(
  problem: ReceiverProblem,
  headers: Record<string, string> = {},
): { status: number; headers: Record<string, string>; body: ReceiverProblem } {
  return {
    status: problem.status,
    headers: { "content-type": "application/problem+json; charset=utf-8", ...headers },
    body: problem,
  };
}
