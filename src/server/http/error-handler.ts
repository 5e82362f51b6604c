import type { ErrorRequestHandler, Request, Response } from "express";
import { ChainInputError } from "../../chain/index.ts";
import { ProblemError, problemCatalogue, storeFailureProblem, validationFailed } from "../problems.ts";
import type { ServerLogger } from "../server-logger.ts";
import { StoreTransientError } from "../store/store-errors.ts";
import { stateOf } from "./request-state.ts";
import { sendProblem } from "./send-problem.ts";

/** A chain module field such as `payments[0].payee` as a JSON Pointer under the request's inputs. */
function chainFieldPointer(location: string, field: string): string {
  return `${location}/${field
    .replace(/\[(\d+)\]/g, ".$1")
    .split(".")
    .join("/")}`;
}

const statusOf = (error: ProblemError) => problemCatalogue[error.kind].status;

/**
 * The last step: answers every error as Problem Details. A store's transient failure (its
 * database unavailable, or too many concurrent changes) is a 503 with Retry-After. Anything else
 * that is not a ProblemError is the server's own fault: 500 with a generic detail, the cause
 * logged but never sent.
 */
export function answerErrors(logger: ServerLogger): ErrorRequestHandler {
  const answer = (thrown: unknown, req: Request, res: Response) => {
    const error = thrown instanceof StoreTransientError ? storeFailureProblem(thrown) : thrown;
    const { requestId, route } = stateOf(res);
    // An operation answers only the statuses it documents; another is the server's own mistake.
    const undocumented =
      error instanceof ProblemError &&
      route !== undefined &&
      !Object.hasOwn(route.responses, String(statusOf(error)));
    if (error instanceof ProblemError && !undocumented) return sendProblem(req, res, error);
    if (error instanceof ChainInputError) {
      // Domain code checks its inputs first; whatever the chain module still refuses is bad input too.
      const location = route?.body ? "/body" : "/query";
      return sendProblem(
        req,
        res,
        validationFailed([{ path: chainFieldPointer(location, error.field), message: error.message }]),
      );
    }
    const reason = undocumented
      ? `answered ${statusOf(error)}, which the operation does not document: ${error.detail}`
      : ((error as Error)?.message ?? String(error));
    logger.error(`request ${requestId} (${req.method} ${route?.key ?? req.path}) failed: ${reason}`, error);
    sendProblem(
      req,
      res,
      new ProblemError(
        "internalError",
        "An unexpected error occurred; retry later and quote the request id if it persists.",
      ),
    );
  };
  return (error, req, res, next) => {
    if (res.headersSent) return next(error);
    try {
      answer(error, req, res);
    } catch (invalidAnswer) {
      // The problem broke the operation's response schema: that is the server's fault, a 500.
      answer(invalidAnswer, req, res);
    }
  };
}
