// The contract suite's public entry points: plan or run it against any base URL, report the results.
export { formatJUnitReport } from "./junit-report.ts";
export {
  formatOperationLine,
  formatResultLine,
  formatSummary,
  type OperationSummary,
  summariseOperations,
} from "./report.ts";
export {
  CredentialRefusedError,
  planContractChecks,
  prepareContractRun,
  type ResultSummary,
  runContractSuite,
  summariseResults,
  UnknownOperationError,
} from "./run-suite.ts";
export type {
  CheckResult,
  ContractSuiteOptions,
  ContractTarget,
  Credentials,
  Outcome,
  PlannedCheck,
  TargetCredentials,
} from "./target.ts";
export { MissingCredential } from "./target.ts";
