import type { RequestHandler } from "express";
import { type ArrayLimits, findOverlongArrays, readArrayLimits } from "../../spec/array-limits.ts";
import type { SpecOperation } from "../../spec/operations.ts";
import type { SpecDocument } from "../../spec/spec-document.ts";
import { validationFailed } from "../problems.ts";
import { stateOf } from "./request-state.ts";

/**
 * Refuses a body whose arrays are longer than their `maxItems` before the validator checks their
 * items: a 300 KB body of 100,000 empty items would otherwise keep the validator busy for
 * minutes listing every missing field of every item.
 */
export function refuseOverlongArrays(
  spec: SpecDocument,
  operations: readonly SpecOperation[],
): RequestHandler {
  const limitsByOperation = new Map<string, ArrayLimits>();
  for (const operation of operations) {
    const limits = operation.body && readArrayLimits(spec, operation.body.schema);
    if (limits) limitsByOperation.set(operation.operationId, limits);
  }
  return (req, res, next) => {
    const operationId = stateOf(res).route?.operationId;
    const limits = operationId === undefined ? undefined : limitsByOperation.get(operationId);
    if (!limits || req.body === undefined) return next();
    const overlong = findOverlongArrays(req.body, limits);
    if (overlong.length === 0) return next();
    next(
      validationFailed(
        overlong.map(({ pointer, maxItems, length }) => ({
          path: `/body${pointer}`,
          message: `must NOT have more than ${maxItems} items, got ${length}`,
        })),
      ),
    );
  };
}
