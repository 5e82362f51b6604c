import { newUlid } from "../../ids.ts";
import { invalidState, notFound, validationFailed } from "../../problems.ts";
import type { DomainContext } from "../shared/context.ts";
import { maxFaultsPerAccount } from "../shared/fault-book.ts";
import type { OperationInput, StatelessContext } from "../shared/operation-types.ts";
import type { Schemas } from "../shared/wire-types.ts";
import { findFaultIssues, newFault } from "./fault-request.ts";

/**
 * Creates a fault for the caller's account, applied from its next call on; a request whose
 * members do not fit together, or that names no operation of the API, is a 400 naming the field.
 */
export function createSandboxFault(
  ctx: DomainContext,
  { principal: { accountId }, body }: OperationInput<"createSandboxFault">,
): Schemas["SandboxFault"] {
  const issues = findFaultIssues(body, ctx.faults.faultableOperationIds);
  if (issues.length > 0) {
    throw validationFailed(issues.map(({ member, message }) => ({ path: `/body/${member}`, message })));
  }
  if (ctx.faults.book.list(accountId).length >= maxFaultsPerAccount) {
    throw invalidState(
      `The account has ${maxFaultsPerAccount} faults, the most it may have: delete some (DELETE /sandbox/faults/{faultId}, or DELETE /sandbox/faults for all) first.`,
    );
  }
  const now = ctx.clock.now();
  const fault = newFault(body, { id: `flt_${newUlid(now)}`, createdAt: now, source: "api" });
  ctx.faults.book.add(accountId, fault);
  return { ...fault };
}

export function listSandboxFaults(
  ctx: StatelessContext,
  { principal: { accountId } }: OperationInput<"listSandboxFaults">,
): Schemas["SandboxFaultList"] {
  return { faults: ctx.faults.book.list(accountId).map((fault) => ({ ...fault })) };
}

/** Deletes one of the caller's faults; another account's answers as an unknown one, 404. */
export function deleteSandboxFault(
  ctx: StatelessContext,
  { principal: { accountId }, path: { faultId } }: OperationInput<"deleteSandboxFault">,
): undefined {
  if (!ctx.faults.book.delete(accountId, faultId)) {
    throw notFound(`No fault of this account has the id ${faultId}; GET /sandbox/faults lists them.`);
  }
  return undefined;
}

export function clearSandboxFaults(
  ctx: StatelessContext,
  { principal: { accountId } }: OperationInput<"clearSandboxFaults">,
): undefined {
  ctx.faults.book.clear(accountId);
  return undefined;
}
