import type { Response } from "express";
import type { SpecOperation } from "../../spec/operations.ts";
import type { Principal } from "../domain/principal.ts";

/** What the middleware learns about a request, kept in `res.locals` for the later steps. */
export interface RequestState {
  requestId: string;
  route?: SpecOperation;
  /** The path parameters of the matched operation, decoded. */
  pathParams?: Record<string, string>;
  principal?: Principal;
}

export function stateOf(res: Response): RequestState {
  return res.locals as RequestState;
}

/** The caller, for handlers behind `authenticate`; its absence is a wiring mistake, not bad input. */
export function principalOf(res: Response): Principal {
  const { principal } = stateOf(res);
  if (!principal) throw new Error("handler reached without an authenticated principal");
  return principal;
}
