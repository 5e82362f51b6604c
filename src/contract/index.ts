// The contract suite's public entry points: plan or run it against any base URL, report the results.
export {
  formatOperationLine,
  formatResultLine,
  formatSummary,
  type OperationSummary,
  summariseOperations,
} from "./report.ts";
export { planContractChecks, type ResultSummary, runContractSuite, summariseResults } from "./run-suite.ts";
export type {
  CheckResult,
  ContractSuiteOptions,
  ContractTarget,
  Credentials,
  Outcome,
  PlannedCheck,
} from "./target.ts";
