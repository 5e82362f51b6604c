import type { Request, Response } from "express";
import { buildProblem, type ProblemError } from "../problems.ts";
import { stateOf } from "./request-state.ts";

/** Answers a ProblemError as `application/problem+json`, with its headers. */
export function sendProblem(req: Request, res: Response, error: ProblemError): void {
  const body = buildProblem(error.kind, error.detail, {
    instance: req.path,
    requestId: stateOf(res).requestId,
    issues: error.issues,
  });
  res.status(body.status).set(error.headers).type("application/problem+json").json(body);
}
