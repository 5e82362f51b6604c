import type { ProblemBody } from "../problems/problem-catalogue.ts";

/** A problem as an answer: its status, `application/problem+json` and any extra headers. */
export function answerProblem(
  problem: ProblemBody,
  headers: Record<string, string> = {},
): { status: number; headers: Record<string, string>; body: ProblemBody } {
  return {
    status: problem.status,
    headers: { "content-type": "application/problem+json; charset=utf-8", ...headers },
    body: problem,
  };
}
