import type { ResultSummary } from "./run-suite.ts";
import type { CheckResult, Outcome } from "./target.ts";

const labels: Record<Outcome, string> = {
  pass: "PASS",
  fail: "FAIL",
  "needs-stateful-server": "STATEFUL",
};

/** One report line: outcome, operation, check and why. */
export function formatResultLine(result: CheckResult): string {
  return `${labels[result.outcome].padEnd(8)} ${result.operationId} › ${result.check}: ${result.reason}`;
}

/** The closing line of a report. */
export function formatSummary(summary: ResultSummary, baseUrl: string, stateful: boolean): string {
  const kind = stateful ? "stateful target" : "stateless target (a mock)";
  const line = `${summary.total} checks against ${baseUrl}, ${kind}: ${summary.passed} passed, ${summary.failed} failed, ${summary.needsStatefulServer} need a stateful server`;
  if (summary.needsStatefulServer === 0) return line;
  return `${line} (STATEFUL lines say what each one needs${stateful ? "" : "; run with --stateful against a real server"})`;
}
