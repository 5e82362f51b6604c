import { describe, expect, it } from "vitest";
import { planContractChecks } from "../../src/contract/run-suite.ts";
import {
  type ContractSuiteOptions,
  type ContractTarget,
  MissingCredential,
  type PlannedCheck,
} from "../../src/contract/target.ts";
import type { SpecDocument } from "../../src/spec/spec-document.ts";

/**
 * Registers the contract suite with vitest: one `describe` per operation and one test per check.
 * A check that is not sent to this target is listed as skipped with the reason in its name; one the
 * target is known to fall short on (a mock) runs, and is skipped at run time with what was answered
 * unless it passes. `target.baseUrl` is read when a check runs, so a `beforeAll` may set it.
 */
export function describeContractSuite(
  target: ContractTarget,
  options: ContractSuiteOptions,
  spec?: SpecDocument,
): PlannedCheck[] {
  const checks = planContractChecks(target, options, spec);
  const byOperation = new Map<string, PlannedCheck[]>();
  for (const check of checks) {
    byOperation.set(check.operationId, [...(byOperation.get(check.operationId) ?? []), check]);
  }
  for (const [operationId, operationChecks] of byOperation) {
    describe(operationId, () => {
      for (const check of operationChecks) {
        if (check.notRunReason instanceof MissingCredential) {
          it.skip(`${check.check} [needs another credential: ${check.notRunReason.reason}]`, () => {});
          continue;
        }
        if (check.notRunReason !== undefined) {
          it.skip(`${check.check} [needs a stateful server: ${check.notRunReason}]`, () => {});
          continue;
        }
        const name = check.mockShortfall
          ? `${check.check} [mock may fall short: ${check.mockShortfall}]`
          : check.check;
        it(name, async ({ skip }) => {
          const result = await check.run();
          if (result.outcome === "needs-stateful-server" || result.outcome === "needs-credential") {
            skip(result.reason);
          }
          expect(result.outcome, result.reason).toBe("pass");
        });
      }
    });
  }
  return checks;
}
