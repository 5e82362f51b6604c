import type { RequestHandler } from "express";
import type { SpecDocument } from "../../spec/spec-document.ts";
import { readAnswerPreferences } from "../http/prefer-header.ts";
import { stateOf, takeResponseCheck } from "../http/request-state.ts";
import { chooseForcedAnswer } from "./choose-forced-answer.ts";

/**
 * Answers a request whose `Prefer` header asks for a status (`code=404`) or a named example
 * (`example=...`) with that documented answer, as Prism does, instead of running the operation:
 * nothing is read or written, no webhook is sent. It runs once the request has passed
 * authentication and validation; the answer is checked against the spec as any other.
 * Without the header, one property read.
 */
export function answerPreferredExample(spec: SpecDocument): RequestHandler {
  return (req, res, next) => {
    const header = req.headers.prefer;
    if (header === undefined) return next();
    const preferences = readAnswerPreferences(header);
    if (preferences.code === undefined && preferences.example === undefined) return next();
    const { route } = stateOf(res);
    if (!route) return next(new Error("answerPreferredExample runs after resolveOperation"));
    const answer = chooseForcedAnswer(spec, route, preferences, req.headers.accept);
    res.status(answer.status).set(answer.headers);
    if (answer.mediaType === undefined || answer.body === undefined) {
      takeResponseCheck(res);
      res.end();
      return;
    }
    const text =
      typeof answer.body === "string" && !answer.mediaType.includes("json")
        ? answer.body
        : JSON.stringify(answer.body);
    res.type(answer.mediaType);
    takeResponseCheck(res)?.(req, res, answer.body);
    res.send(text);
  };
}
