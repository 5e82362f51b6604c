import type { Fault, FaultRequest } from "../shared/fault-book.ts";

/** A problem of a fault request, at a member's name. */
export interface FaultIssue {
  member: keyof FaultRequest;
  message: string;
}

/** Whether an operation can be faulted: every one but those that manage faults. */
export function isFaultable(path: string): boolean {
  return !path.startsWith("/sandbox/faults");
}

/**
 * What the schema cannot say of a fault request: an `operationId` of the API (that can be
 * faulted), and the members that go with its `kind` and `status`.
 */
export function findFaultIssues(request: FaultRequest, faultable: ReadonlySet<string>): FaultIssue[] {
  const issues: FaultIssue[] = [];
  if (request.operationId !== undefined && !faultable.has(request.operationId)) {
    issues.push({
      member: "operationId",
      message: `must be the operationId of an operation of the API other than the /sandbox/faults ones, such as createSecurePayment; got ${JSON.stringify(request.operationId)}`,
    });
  }
  if (request.kind === "status" && request.status === undefined) {
    issues.push({ member: "status", message: "is required with kind status" });
  }
  if (request.kind !== "status" && request.status !== undefined) {
    issues.push({ member: "status", message: `goes only with kind status, not ${request.kind}` });
  }
  if (request.retryAfterSeconds !== undefined && request.status !== 429 && request.status !== 503) {
    issues.push({ member: "retryAfterSeconds", message: "goes only with status 429 or 503" });
  }
  if (request.kind === "latency" && request.latencyMs === undefined) {
    issues.push({ member: "latencyMs", message: "is required with kind latency" });
  }
  if (request.kind !== "latency" && request.latencyMs !== undefined) {
    issues.push({ member: "latencyMs", message: `goes only with kind latency, not ${request.kind}` });
  }
  if (request.calls !== undefined && request.share !== undefined) {
    issues.push({ member: "share", message: "cannot be given with calls: give one of them, or neither" });
  }
  return issues;
}

/** The fault a checked request creates. */
export function newFault(
  request: FaultRequest,
  fields: { id: string; createdAt: Date; source: Fault["source"] },
): Fault {
  const answersRetryAfter = request.status === 429 || request.status === 503;
  return {
    id: fields.id,
    operationId: request.operationId ?? null,
    kind: request.kind,
    status: request.status ?? null,
    retryAfterSeconds: answersRetryAfter ? (request.retryAfterSeconds ?? 1) : null,
    latencyMs: request.latencyMs ?? null,
    callsLeft: request.calls ?? null,
    share: request.share ?? null,
    seenCalls: 0,
    appliedCalls: 0,
    source: fields.source,
    createdAt: fields.createdAt.toISOString(),
  };
}
