import type { SpecOperation } from "../../../spec/operations.ts";
import { ConfigError } from "../../config/load-config.ts";
import type { ResolvedConfig } from "../../config/sandbox-config.ts";
import { newUlid } from "../../ids.ts";
import type { FaultContext } from "../shared/context.ts";
import { FaultBook } from "../shared/fault-book.ts";
import { findFaultIssues, isFaultable, newFault } from "./fault-request.ts";

/**
 * The server's fault book, holding the configuration file's faults (`accounts[].faults`) from
 * the start, created at `now`. A configured fault whose members do not fit together, or that
 * names an operation the served spec does not have, stops the start with a ConfigError naming it.
 */
export function loadConfiguredFaults(
  config: ResolvedConfig,
  operations: readonly SpecOperation[],
  now: Date,
): FaultContext {
  const faultableOperationIds = new Set(
    operations.filter((operation) => isFaultable(operation.key)).map((operation) => operation.operationId),
  );
  const book = new FaultBook();
  const problems: string[] = [];
  config.accounts.forEach((account, a) => {
    (account.faults ?? []).forEach((request, f) => {
      const issues = findFaultIssues(request, faultableOperationIds);
      for (const { member, message } of issues)
        problems.push(`accounts[${a}].faults[${f}].${member}: ${message}`);
      if (issues.length === 0) {
        book.add(
          account.id,
          newFault(request, { id: `flt_${newUlid(now)}`, createdAt: now, source: "config" }),
        );
      }
    });
  });
  if (problems.length > 0) throw new ConfigError("the server configuration", problems);
  return { book, faultableOperationIds };
}
