import type { Request, Response } from "express";
import type { ProblemError } from "../problems.ts";
import { stateOf } from "./request-state.ts";

/** Answers a ProblemError as `application/problem+json`, with its headers. */
export function sendProblem(req: Request, res: Response, error: ProblemError): void {
  const body = error.toBody({ instance: req.path, requestId: stateOf(res).requestId });
  res.status(body.status).set(error.headers).type("application/problem+json").json(body);
}
