/** Which side of a call broke the spec: what the client sent, what the upstream answered, or no answer at all. */
export type ViolationSide = "request" | "response" | "upstream";

/** One rule of the spec a call broke, at one member: a JSON Pointer, a header, `status`, `path`. */
export interface Violation {
  side: ViolationSide;
  member: string;
  rule: string;
}

/** A call the proxy passed on and checked; it holds no header value and no secret path parameter. */
export interface CheckedCall {
  /** undefined when the spec has no operation of the method and path. */
  operationId: string | undefined;
  method: string;
  /** The operation's path template (`/v2/secure-payments/{token}`); for a call of no operation, its path with every segment that could hold a secret written `{…}` (unmatched-path.ts). */
  path: string;
  /** The status the client got: the upstream's, or the proxy's 502 or 504. */
  status: number;
  /** The answer's X-Request-Id, when it has one. */
  requestId: string | undefined;
  violations: Violation[];
}

/** The operationId, or `METHOD path` for a call of no operation: how lines and reports name a call. */
export function callName(call: Pick<CheckedCall, "operationId" | "method" | "path">): string {
  return call.operationId ?? `${call.method} ${call.path}`;
}

/** `createSecurePayment 201 response /requestIds/0: must match pattern "^[0-9a-f]{64}$"` */
export function violationLine(call: CheckedCall, violation: Violation): string {
  return `${callName(call)} ${call.status} ${violation.side} ${violation.member}: ${violation.rule}`;
}
