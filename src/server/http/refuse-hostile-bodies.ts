import type { RequestHandler } from "express";
import {
  type BodyLimits,
  findOverlongArrays,
  findUnknownMembers,
  readBodyLimits,
  withoutUnknownMembers,
} from "../../spec/body-limits.ts";
import type { SpecOperation } from "../../spec/operations.ts";
import type { SpecDocument } from "../../spec/spec-document.ts";
import { maxListedIssues, validationFailed } from "../problems.ts";
import { stateOf } from "./request-state.ts";
import { unknownMemberMessage, withValueShown } from "./validation-issues.ts";

/**
 * Refuses, before the validator checks a single value, a body that is wrong by its size alone:
 * arrays longer than their `maxItems`, and, with `strictBodies`, more unknown members of closed
 * objects than an answer lists. The validator would check every item and make an error of every
 * member: a 300 KB body of 100,000 empty items kept it busy for minutes. (Bodies of more than
 * `maxBodyStructures` objects, arrays and members never get here: they are refused unparsed.)
 * Without `strictBodies` unknown members are dropped here, unread, in one copy of each object
 * that has any, rather than by the validator one `delete` at a time.
 */
export function refuseHostileBodies(
  spec: SpecDocument,
  operations: readonly SpecOperation[],
  options: { strictBodies: boolean },
): RequestHandler {
  const limitsByOperation = new Map<string, BodyLimits>();
  for (const operation of operations) {
    const limits = operation.body && readBodyLimits(spec, operation.body.schema);
    if (limits) limitsByOperation.set(operation.operationId, limits);
  }
  return (req, res, next) => {
    const operationId = stateOf(res).route?.operationId;
    const limits = operationId === undefined ? undefined : limitsByOperation.get(operationId);
    if (!limits || req.body === undefined) return next();
    const overlong = findOverlongArrays(req.body, limits);
    if (overlong.length > 0) {
      return next(
        validationFailed(
          overlong.map(({ pointer, maxItems, length }) => ({
            path: `/body${pointer}`,
            message: `must NOT have more than ${maxItems} items, got ${length}`,
          })),
        ),
      );
    }
    // Without strictBodies unknown members are dropped, as the validator would drop them.
    if (!options.strictBodies) {
      req.body = withoutUnknownMembers(req.body, limits);
      return next();
    }
    // Up to as many as an answer lists, the validator finds them along with everything else.
    const unknown = findUnknownMembers(req.body, limits, maxListedIssues);
    if (unknown.total <= maxListedIssues) return next();
    const issues = unknown.listed.map(({ pointer, value }) => ({
      path: `/body${pointer}`,
      message: withValueShown(unknownMemberMessage, value),
    }));
    next(validationFailed(issues, undefined, unknown.total));
  };
}
