import { readPathOperations } from "../spec/operations.ts";
import { createSchemaValidator } from "../spec/schema-validator.ts";
import { loadBundledSpec, type SpecDocument } from "../spec/spec-document.ts";
import type { SuiteContext } from "./check-kit.ts";
import { findRefusedCredential } from "./credential-check.ts";
import { planOperationChecks } from "./operation-checks.ts";
import { takeSandboxFootprint } from "./sandbox-footprint.ts";
import { planStatefulScenarios } from "./stateful-scenarios.ts";
import type { CheckResult, ContractSuiteOptions, ContractTarget, PlannedCheck } from "./target.ts";

/** `options.operations` names an operationId the spec does not have. */
export class UnknownOperationError extends Error {
  override name = "UnknownOperationError";
}

/**
 * Plans every check of the contract suite for a target, from the operations of the spec's `paths`
 * (generated/openapi.json unless another document is given), or those of `options.operations`
 * only. Nothing is sent until a check is run.
 */
export function planContractChecks(
  target: ContractTarget,
  options: ContractSuiteOptions,
  spec: SpecDocument = loadBundledSpec(),
): PlannedCheck[] {
  const context: SuiteContext = { spec, validator: createSchemaValidator(spec), target, options };
  const operations = readPathOperations(spec);
  const chosen = options.operations && new Set(options.operations);
  if (chosen) {
    const known = new Set(operations.map((operation) => operation.operationId));
    const unknown = [...chosen].filter((id) => !known.has(id));
    if (unknown.length > 0)
      throw new UnknownOperationError(
        `no operation of the spec has the operationId ${unknown.map((id) => JSON.stringify(id)).join(", ")}`,
      );
  }
  // Only the chosen operations' own checks are planned; a scenario may need every operation to set
  // up its records, so all are planned and those of other operations dropped.
  const planned = [
    ...operations
      .filter((operation) => !chosen || chosen.has(operation.operationId))
      .flatMap((operation) => planOperationChecks(context, operation)),
    ...planStatefulScenarios(context, operations),
  ];
  const checks = chosen ? planned.filter((check) => chosen.has(check.operationId)) : planned;
  const seen = new Set<string>();
  for (const check of checks) {
    const key = `${check.operationId} ${check.check}`;
    if (seen.has(key)) throw new Error(`two checks share the name "${key}"`);
    seen.add(key);
  }
  return checks;
}

/** The target refused a credential of the suite: every check would fail for that one reason. */
export class CredentialRefusedError extends Error {
  override name = "CredentialRefusedError";
}

const defaultTimeoutMs = 15_000;

/**
 * What comes before and after the checks: the credentials are tried once (a refused one throws a
 * CredentialRefusedError), and a reference server's sandbox clock and webhook endpoints are noted
 * so that `finish` can leave them as they were. Returns what `finish` did, in words.
 */
export async function prepareContractRun(
  target: ContractTarget,
  options: ContractSuiteOptions,
  spec: SpecDocument = loadBundledSpec(),
): Promise<{ finish(): Promise<string[]> }> {
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const refused = await findRefusedCredential(target, spec, timeoutMs);
  if (refused) throw new CredentialRefusedError(refused);
  const footprint = options.stateful ? await takeSandboxFootprint(target, spec, timeoutMs) : undefined;
  return { finish: async () => (footprint ? footprint.restore() : []) };
}

/**
 * Runs every check of the suite against a target, one after the other, and returns the results in
 * plan order; the target's sandbox is left as it was found (see prepareContractRun).
 */
export async function runContractSuite(
  target: ContractTarget,
  options: ContractSuiteOptions,
  spec: SpecDocument = loadBundledSpec(),
): Promise<CheckResult[]> {
  const checks = planContractChecks(target, options, spec);
  const run = await prepareContractRun(target, options, spec);
  const results: CheckResult[] = [];
  try {
    for (const check of checks) results.push(await check.run());
  } finally {
    await run.finish();
  }
  return results;
}

export interface ResultSummary {
  total: number;
  passed: number;
  failed: number;
  needsStatefulServer: number;
  needsCredential: number;
}

export function summariseResults(results: CheckResult[]): ResultSummary {
  const count = (outcome: CheckResult["outcome"]) =>
    results.filter((result) => result.outcome === outcome).length;
  return {
    total: results.length,
    passed: count("pass"),
    failed: count("fail"),
    needsStatefulServer: count("needs-stateful-server"),
    needsCredential: count("needs-credential"),
  };
}
