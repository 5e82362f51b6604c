import type { RequestHandler } from "express";
import { isFaultable } from "../domain/sandbox/fault-request.ts";
import type { Fault, FaultBook } from "../domain/shared/fault-book.ts";
import { ProblemError, type ProblemKind } from "../problems.ts";
import { stateOf } from "./request-state.ts";

const problemOfStatus: Record<number, ProblemKind> = {
  429: "rateLimited",
  500: "internalError",
  503: "serviceUnavailable",
};

function faultProblem(fault: Fault): ProblemError {
  const status = fault.status ?? 500;
  const retry =
    fault.retryAfterSeconds === null ? "" : `; retry in ${fault.retryAfterSeconds} s (Retry-After)`;
  return new ProblemError(
    problemOfStatus[status] ?? "internalError",
    `The sandbox fault ${fault.id} answered this call with ${status}; the operation did not run and nothing was changed${retry}.`,
    fault.retryAfterSeconds === null ? {} : { headers: { "Retry-After": String(fault.retryAfterSeconds) } },
  );
}

/**
 * Applies the caller's account's faults (sandbox API `/sandbox/faults`, or the configuration
 * file) to a call that is about to run its operation: answers the fault's status without
 * running it, runs it after the fault's latency, or closes the connection. Without any fault in
 * the book, one comparison.
 */
export function applyFaults(book: FaultBook): RequestHandler {
  return (req, res, next) => {
    if (book.size === 0) return next();
    const { route, principal } = stateOf(res);
    if (!route || !principal || !isFaultable(route.key)) return next();
    const fault = book.take(principal.accountId, route.operationId);
    if (!fault) return next();
    if (fault.kind === "status") return next(faultProblem(fault));
    if (fault.kind === "latency") {
      setTimeout(next, fault.latencyMs ?? 0);
      return;
    }
    req.socket.destroy();
  };
}
