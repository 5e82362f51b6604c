import type { SpecOperation } from "../../spec/operations.ts";
import { anonymousOperationIds } from "../domain/shared/operation-types.ts";

/**
 * Refuses to serve a spec whose operations and handlers differ: the server would answer 500 to an
 * operation without a handler or a documented success status, and a handler without an operation
 * is dead code.
 */
export function checkHandlersCoverSpec(operations: readonly SpecOperation[], handlers: object): void {
  const pathOperations = operations.filter((entry) => entry.kind === "path");
  const specIds = new Set(pathOperations.map((entry) => entry.operationId));
  const statusless = pathOperations.filter((entry) => entry.successStatus === undefined);
  const missing = [...specIds].filter((id) => !Object.hasOwn(handlers, id));
  const unknown = Object.keys(handlers).filter((id) => !specIds.has(id));
  // A handler typed for a signed-in caller must never see an anonymous one, nor the reverse.
  const anonymous = pathOperations
    .filter((entry) => entry.acceptsAnonymous)
    .map((entry) => entry.operationId);
  const typedAnonymous: readonly string[] = anonymousOperationIds;
  const untyped = anonymous.filter((id) => !typedAnonymous.includes(id));
  const problems = [
    ...(untyped.length > 0
      ? [
          `operation ${untyped.join(", ")} accepts calls without a credential, which anonymousOperationIds does not list`,
        ]
      : []),
    ...(missing.length > 0 ? [`no handler for operation ${missing.join(", ")}`] : []),
    ...(unknown.length > 0 ? [`handler for an operation the spec does not have: ${unknown.join(", ")}`] : []),
    ...(statusless.length > 0
      ? [`no documented success status for ${statusless.map((entry) => entry.operationId).join(", ")}`]
      : []),
  ];
  if (problems.length > 0) throw new Error(`the server cannot serve this spec: ${problems.join("; ")}`);
}
