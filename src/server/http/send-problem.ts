import type { Request, Response } from "express";
import type { ProblemError } from "../problems.ts";
import { stateOf, takeResponseCheck } from "./request-state.ts";

/**
 * The request path as a valid URI reference for `instance`: characters a URI cannot hold, and `%`
 * not followed by two hex digits (a malformed escape sent by the caller), are percent-encoded.
 */
function toUriReference(path: string): string {
  return path.replace(/%(?![0-9A-Fa-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@/%]/g, (character) =>
    character === "%" ? "%25" : encodeURIComponent(character),
  );
}

/**
 * Answers a ProblemError as `application/problem+json`, with its headers. Throws, sending nothing,
 * when the answer breaks the operation's response schema (see takeResponseCheck).
 */
export function sendProblem(req: Request, res: Response, error: ProblemError): void {
  const body = error.toBody({ instance: toUriReference(req.path), requestId: stateOf(res).requestId });
  res.status(body.status).set(error.headers).type("application/problem+json");
  takeResponseCheck(res)?.(req, res, body);
  res.json(body);
}
