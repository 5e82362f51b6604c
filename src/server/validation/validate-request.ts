import type { RequestHandler } from "express";
import type { SpecDocument } from "../../spec/spec-document.ts";
import { stateOf } from "../http/request-state.ts";
import { maxListedIssues, validationFailed } from "../problems.ts";
import { screenBody } from "./body-screen.ts";
import { operationValidatorsOf } from "./operation-validators.ts";
import { type IssueWording, readIssueWording, toValidationIssues } from "./validation-issues.ts";

/**
 * The one step that checks a request against the spec, after its body is parsed: the body's
 * sizes first (body-screen.ts), then the path, query and body against the operation's schemas
 * (operation-validators.ts), every issue listed in plain words. The handler then reads the
 * coerced query from the request's state. Unless `validateResponses` is off, the answer is
 * checked where it is sent (dispatchOperation, sendProblem).
 */
export function validateRequests(
  spec: SpecDocument,
  options: { strictBodies: boolean; validateResponses: boolean },
): RequestHandler {
  const validatorsOf = operationValidatorsOf(spec, options.strictBodies);
  // Read from the spec at the first refusal rather than at every start-up.
  let wording: IssueWording | undefined;
  return (req, res, next) => {
    const state = stateOf(res);
    const { route } = state;
    if (!route) return next(new Error("validateRequests runs after resolveOperation"));
    const validators = validatorsOf(route);
    if (req.body !== undefined && validators.bodyLimits) {
      const screened = screenBody(req.body, validators.bodyLimits, options.strictBodies);
      if (screened.refused) return next(validationFailed(screened.issues, undefined, screened.total));
      req.body = screened.body;
    }
    // Express parses the query anew at each read of req.query: this copy is the one checked and coerced.
    const query = req.query as Record<string, unknown>;
    const path = state.pathParams ?? {};
    const found = validators.checkRequest({ path, query, headers: req.headers, body: req.body });
    if (found.length > 0) {
      wording ??= readIssueWording(spec);
      const sources = { body: req.body, query, path, headers: req.headers };
      const { listed, total } = toValidationIssues(
        sources,
        route.operationId,
        found,
        wording,
        maxListedIssues,
      );
      return next(validationFailed(listed, undefined, total));
    }
    state.query = query;
    if (options.validateResponses) state.responseCheck = validators.responseCheck;
    next();
  };
}
