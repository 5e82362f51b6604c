import { type AnswerFinding, findAnswerIssues } from "../contract/answer-verdict.ts";
import type { HttpAnswer } from "../net/http-request.ts";
import { toValidatorIssues } from "../server/validation/operation-validators.ts";
import type { SpecOperation } from "../spec/operations.ts";
import type { SchemaValidator } from "../spec/schema-validator.ts";
import type { Violation } from "./checked-call.ts";

const responseViolation = (member: string, rule: string): Violation => ({ side: "response", member, rule });

/** A finding of the contract suite's answer verdict as violations, one per member. */
function toViolations(
  finding: AnswerFinding,
  answer: HttpAnswer,
  isSecretHeader: (name: string) => boolean,
): Violation[] {
  switch (finding.kind) {
    case "undocumented-status":
      return [responseViolation("status", "is not documented")];
    case "missing-header":
      return [responseViolation(`header ${finding.header}`, "is missing")];
    case "header-schema":
      return [
        responseViolation(
          `header ${finding.header}`,
          isSecretHeader(finding.header)
            ? "does not match its schema"
            : `${JSON.stringify(finding.value.slice(0, 60))} does not match its schema`,
        ),
      ];
    case "undocumented-content-type":
      return [
        responseViolation(
          "header content-type",
          `"${finding.mediaType || "(none)"}" is not documented for ${answer.status} (expected ${finding.documented.join(" or ")})`,
        ),
      ];
    case "not-json":
      return [responseViolation("(body)", "is not JSON")];
    case "body-schema":
      return toValidatorIssues(finding.errors, "").map((issue) =>
        responseViolation(issue.path || "(body)", issue.message),
      );
    case "problem-status":
      return [
        responseViolation(
          "/status",
          `${JSON.stringify(finding.problemStatus)} differs from the HTTP status ${answer.status}`,
        ),
      ];
  }
}

/**
 * What the answer breaks of its operation, found by the contract suite's verdict (answer-verdict.ts):
 * a documented status, its headers, its content type and its body's schema. The answer to a HEAD
 * has no body to check.
 */
export function judgeResponse(
  validator: SchemaValidator,
  operation: SpecOperation,
  answer: HttpAnswer,
  options: { head: boolean; isSecretHeader: (name: string) => boolean },
): Violation[] {
  const bodyKinds: AnswerFinding["kind"][] = [
    "undocumented-content-type",
    "not-json",
    "body-schema",
    "problem-status",
  ];
  return findAnswerIssues(validator, operation, answer)
    .filter((finding) => !(options.head && bodyKinds.includes(finding.kind)))
    .flatMap((finding) => toViolations(finding, answer, options.isSecretHeader));
}
