import type { Request, RequestHandler } from "express";
import type { ServerContext } from "../domain/context.ts";
import type { OperationHandler, OperationHandlers, PathOperationId } from "../operations/operation-types.ts";
import { clockOf, principalOf, stateOf } from "./request-state.ts";

/**
 * The one step that answers an operation: the handler of the operationId the route table matched,
 * given the validated inputs, the context `serverOf` picks for the request and the caller's
 * account's clock, answered with the operation's documented success status.
 */
export function dispatchOperation(
  handlers: OperationHandlers,
  serverOf: (req: Request) => ServerContext,
): RequestHandler {
  return async (req, res) => {
    const { route, pathParams = {} } = stateOf(res);
    // checkHandlersCoverSpec made sure at start-up that every route has a handler and a success status.
    if (!route?.successStatus) throw new Error("dispatchOperation runs after resolveOperation");
    const handler = handlers[route.operationId as PathOperationId] as OperationHandler<PathOperationId>;
    const body = await handler(
      { ...serverOf(req), clock: clockOf(res) },
      {
        principal: principalOf(res),
        path: pathParams as never,
        query: req.query as never,
        body: req.body,
      },
    );
    res.status(route.successStatus);
    if (body === undefined) res.end();
    else res.json(body);
  };
}
