import { readPathOperations } from "../spec/operations.ts";
import { createSchemaValidator } from "../spec/schema-validator.ts";
import { loadBundledSpec, type SpecDocument } from "../spec/spec-document.ts";
import type { SuiteContext } from "./check-kit.ts";
import { planOperationChecks } from "./operation-checks.ts";
import { planStatefulScenarios } from "./stateful-scenarios.ts";
import type { CheckResult, ContractSuiteOptions, ContractTarget, PlannedCheck } from "./target.ts";

/**
 * Plans every check of the contract suite for a target, from the operations of the spec's `paths`
 * (generated/openapi.json unless another document is given). Nothing is sent until a check is run.
 */
export function planContractChecks(
  target: ContractTarget,
  options: ContractSuiteOptions,
  spec: SpecDocument = loadBundledSpec(),
): PlannedCheck[] {
  const context: SuiteContext = { spec, validator: createSchemaValidator(spec), target, options };
  const operations = readPathOperations(spec);
  const checks = [
    ...operations.flatMap((operation) => planOperationChecks(context, operation)),
    ...planStatefulScenarios(context, operations),
  ];
  const seen = new Set<string>();
  for (const check of checks) {
    const key = `${check.operationId} ${check.check}`;
    if (seen.has(key)) throw new Error(`two checks share the name "${key}"`);
    seen.add(key);
  }
  return checks;
}

/** Runs every check of the suite against a target, one after the other, and returns the results in plan order. */
export async function runContractSuite(
  target: ContractTarget,
  options: ContractSuiteOptions,
  spec?: SpecDocument,
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of planContractChecks(target, options, spec)) results.push(await check.run());
  return results;
}

export interface ResultSummary {
  total: number;
  passed: number;
  failed: number;
  needsStatefulServer: number;
}

export function summariseResults(results: CheckResult[]): ResultSummary {
  const count = (outcome: CheckResult["outcome"]) =>
    results.filter((result) => result.outcome === outcome).length;
  return {
    total: results.length,
    passed: count("pass"),
    failed: count("fail"),
    needsStatefulServer: count("needs-stateful-server"),
  };
}
