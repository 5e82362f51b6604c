import { type BodyLimits, screenByLimits } from "../../spec/body-limits.ts";
import { maxListedIssues, type ValidationIssue } from "../problems.ts";
import { unknownMemberMessage, withValueShown } from "./validation-issues.ts";

/** What screening a body found: the body to validate, or the issues that refuse it unchecked. */
export type ScreenedBody =
  | { refused: false; body: unknown }
  | { refused: true; issues: ValidationIssue[]; total: number };

/**
 * Looks at a body by its size alone, before any value is checked: arrays longer than their
 * `maxItems` refuse it, and the members of closed objects that the schema does not name are
 * dropped unread or, with `strictBodies`, refuse it once there are more than an answer lists.
 * Schema validation would check every item and make an error of every member: a 300 KB body of
 * 100,000 empty items kept it busy for minutes. Fewer unknown members than an answer lists are
 * left for the schema to report, beside every other issue.
 */
export function screenBody(body: unknown, limits: BodyLimits, strictBodies: boolean): ScreenedBody {
  const screen = screenByLimits(body, limits, { dropUnknown: !strictBodies, listUnknown: maxListedIssues });
  if (screen.overlong.length > 0) {
    const issues = screen.overlong.map(({ pointer, maxItems, length }) => ({
      path: `/body${pointer}`,
      message: `must NOT have more than ${maxItems} items, got ${length}`,
    }));
    return { refused: true, issues, total: issues.length };
  }
  if (screen.unknownTotal <= maxListedIssues) return { refused: false, body: screen.value };
  const issues = screen.unknown.map(({ pointer, value }) => ({
    path: `/body${pointer}`,
    message: withValueShown(unknownMemberMessage, value),
  }));
  return { refused: true, issues, total: screen.unknownTotal };
}
