import type { RequestHandler } from "express";
import { ProblemError } from "../problems.ts";
import { stateOf } from "./request-state.ts";
import type { RouteTable } from "./route-table.ts";

/**
 * Finds the spec operation of a request before anything else reads it: a known path with another
 * method answers 405 with `Allow` (OPTIONS answers 204 with `Allow`), and HEAD is answered for
 * every GET operation. A path of no operation leaves the API's steps (`next("route")`) for the
 * pages, and then `answerUnknownPath`.
 */
export function resolveOperation(routes: RouteTable): RequestHandler {
  return (req, res, next) => {
    const match = routes.match(req.method, req.path);
    if (match.kind === "operation") {
      stateOf(res).route = match.route;
      stateOf(res).pathParams = match.params;
      // The rest of the chain (validator included) answers HEAD as the GET it matched; Node's
      // response already knows the request was HEAD and sends no body.
      if (req.method === "HEAD") req.method = "GET";
      return next();
    }
    if (match.kind === "no-path") return next("route");
    const allow = match.allowed.join(", ");
    if (req.method === "OPTIONS") {
      res.set("Allow", allow).status(204).end();
      return;
    }
    next(
      new ProblemError(
        "methodNotAllowed",
        `${req.path} does not answer ${req.method}; it answers ${allow}.`,
        {
          headers: { Allow: allow },
        },
      ),
    );
  };
}

/** The last word on a path that is neither an operation nor a page: 404. */
export function answerUnknownPath(): RequestHandler {
  return (req, _res, next) =>
    next(
      new ProblemError("notFound", `No operation has the path ${req.path}; see /openapi.json for the API.`),
    );
}
