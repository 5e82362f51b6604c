import type { RequestHandler, Response } from "express";
import type { ServerContext } from "../domain/shared/context.ts";
import type {
  OperationHandler,
  OperationHandlers,
  PathOperationId,
} from "../domain/shared/operation-types.ts";
import { clockOf, principalOf, stateOf, takeResponseCheck } from "./request-state.ts";

/**
 * Sends `body` as `application/json` with `status`, as Express's `res.json` sends an object, but
 * without its work per answer that a fixed media type does not need: looking up three settings and
 * parsing the Content-Type it has just set, twice, to add the charset it already holds.
 */
function sendJson(res: Response, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(text));
  res.end(text);
}

/**
 * The one step that answers an operation: the handler of the operationId the route table matched,
 * given the validated inputs, the server's context and the caller's account's clock, answered
 * with the operation's documented success status.
 */
export function dispatchOperation(handlers: OperationHandlers, server: ServerContext): RequestHandler {
  return async (req, res) => {
    const { route, pathParams = {}, query = {} } = stateOf(res);
    // checkHandlersCoverSpec made sure at start-up that every route has a handler and a success status.
    if (!route?.successStatus) throw new Error("dispatchOperation runs after resolveOperation");
    const handler = handlers[route.operationId as PathOperationId] as OperationHandler<PathOperationId>;
    const body = await handler(
      { ...server, clock: clockOf(res) },
      {
        principal: principalOf(res),
        path: pathParams as never,
        query: query as never,
        body: req.body,
      },
    );
    // Set first: the response check picks its schema by the answer's status.
    res.status(route.successStatus);
    if (body === undefined) res.end();
    // The response validator takes a JSON null for a missing body; the spec documents it all the same.
    else if (body === null) res.type("application/json").send("null");
    else {
      takeResponseCheck(res)?.(req, res, body);
      sendJson(res, route.successStatus, body);
    }
  };
}
