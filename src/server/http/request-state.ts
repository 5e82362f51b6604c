import type { Request, Response } from "express";
import type { SpecOperation } from "../../spec/operations.ts";
import type { SandboxClock } from "../clock.ts";
import type { Principal } from "../domain/shared/principal.ts";

/** Checks an answer about to be sent against the operation's response schemas; throws when it breaks them. */
export type ResponseCheck = (req: Request, res: Response, body: unknown) => void;

/** What the middleware learns about a request, kept in `res.locals` for the later steps. */
export interface RequestState {
  requestId: string;
  route: SpecOperation | undefined;
  /** The path parameters of the matched operation, decoded. */
  pathParams: Record<string, string> | undefined;
  /** The query as validated: documented values coerced to their types, defaults filled in. */
  query: Record<string, unknown> | undefined;
  principal: Principal | undefined;
  /** The sandbox clock of the caller's account, read once per request. */
  clock: SandboxClock | undefined;
  /** Checks the answer against the spec once the request has passed validation (validateRequests). */
  responseCheck: ResponseCheck | undefined;
}

/**
 * Starts a request's state with every member it will have: the steps after fill them in without
 * changing its shape. Express's own `res.locals` has no prototype, which keeps V8 from giving it
 * a shape at all, so each step's read or write of it was a lookup in a hash table.
 */
export function startRequestState(res: Response, requestId: string): RequestState {
  const state: RequestState = {
    requestId,
    route: undefined,
    pathParams: undefined,
    query: undefined,
    principal: undefined,
    clock: undefined,
    responseCheck: undefined,
  };
  res.locals = state as unknown as Response["locals"];
  return state;
}

export function stateOf(res: Response): RequestState {
  return res.locals as RequestState;
}

/** The caller's account's sandbox clock, for steps behind `authenticate`. */
export function clockOf(res: Response): SandboxClock {
  const { clock } = stateOf(res);
  if (!clock) throw new Error("request reached without its account's clock");
  return clock;
}

/** The caller, for handlers behind `authenticate`; its absence is a wiring mistake, not bad input. */
export function principalOf(res: Response): Principal {
  const { principal } = stateOf(res);
  if (!principal) throw new Error("handler reached without an authenticated principal");
  return principal;
}

/**
 * The check of the answer about to be sent, taken once: an answer sent instead of one that failed
 * its check (the 500 that reports it) is not checked again.
 */
export function takeResponseCheck(res: Response): ResponseCheck | undefined {
  const state = stateOf(res);
  const check = state.responseCheck;
  state.responseCheck = undefined;
  return check;
}
