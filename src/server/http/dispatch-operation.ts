import type { RequestHandler, Response } from "express";
import type { SpecOperation } from "../../spec/operations.ts";
import { loadAccountClock } from "../account-clock.ts";
import { sessionCookieWriter } from "../auth/session-cookie.ts";
import { SandboxClock } from "../clock.ts";
import type { ServerContext } from "../domain/shared/context.ts";
import type {
  OperationHandler,
  OperationHandlers,
  PathOperationId,
  StatelessOperation,
} from "../domain/shared/operation-types.ts";
import { anonymousCaller, type Caller } from "../domain/shared/principal.ts";
import { principalOf, stateOf, takeResponseCheck } from "./request-state.ts";

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

/** The media type of an operation's text success answer, with its charset. */
function textMediaTypeOf(route: SpecOperation): string {
  const [mediaType] = Object.keys(route.responses[String(route.successStatus)]?.content ?? {});
  if (!mediaType) throw new Error(`${route.operationId} answers text but documents no media type`);
  return `${mediaType}; charset=utf-8`;
}

/**
 * The one step that answers an operation: the handler of the operationId the route table matched,
 * given the validated inputs, the server's context and the caller's account's clock, answered
 * with the operation's documented success status. The clock is read from the store here, unless
 * authentication read it already (a client ID's check) or the operation is stateless.
 */
export function dispatchOperation(handlers: OperationHandlers, server: ServerContext): RequestHandler {
  return async (req, res) => {
    const state = stateOf(res);
    const { route, pathParams = {}, query = {} } = state;
    // checkHandlersCoverSpec made sure at start-up that every route has a handler and a success status.
    if (!route?.successStatus) throw new Error("dispatchOperation runs after resolveOperation");
    const handler = handlers[route.operationId as PathOperationId] as
      | OperationHandler<PathOperationId>
      | StatelessOperation<PathOperationId>;
    // An operation that needs no credential runs without a principal when none was sent.
    const principal: Caller = route.acceptsAnonymous
      ? (state.principal ?? anonymousCaller)
      : principalOf(res);
    const input = {
      principal: principal as never,
      path: pathParams as never,
      query: query as never,
      body: req.body,
    };
    const cookies = sessionCookieWriter(res, server.auth.sessionCookie, () =>
      server.publicOrigin().startsWith("https:"),
    );
    let body: unknown;
    if (typeof handler !== "function") body = await handler.stateless(server, input);
    else {
      // A caller without an account runs on the base clock: it has no sandbox clock of its own.
      state.clock ??=
        principal.kind === "anonymous"
          ? new SandboxClock(server.baseClock)
          : await loadAccountClock(server.store, server.baseClock, principal.accountId);
      body = await handler({ ...server, clock: state.clock, cookies }, input);
    }
    // Set first: the response check picks its schema by the answer's status.
    res.status(route.successStatus);
    if (body === undefined) res.end();
    // The response validator takes a JSON null for a missing body; the spec documents it all the same.
    else if (body === null) res.type("application/json").send("null");
    else if (typeof body === "string") {
      // A text answer (the CSV export) is sent as the one media type its success documents.
      res.type(textMediaTypeOf(route));
      takeResponseCheck(res)?.(req, res, body);
      res.send(body);
    } else {
      takeResponseCheck(res)?.(req, res, body);
      sendJson(res, route.successStatus, body);
    }
  };
}
