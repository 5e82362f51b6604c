import type { ResultSummary } from "./run-suite.ts";
import type { CheckResult, Outcome } from "./target.ts";

const labels: Record<Outcome, string> = {
  pass: "PASS",
  fail: "FAIL",
  "needs-stateful-server": "STATEFUL",
  "needs-credential": "CREDENTIAL",
};

/** One report line: outcome, operation, check and why. */
export function formatResultLine(result: CheckResult): string {
  return `${labels[result.outcome].padEnd(8)} ${result.operationId} › ${result.check}: ${result.reason}`;
}

/** The closing line of a report. */
export function formatSummary(summary: ResultSummary, baseUrl: string, stateful: boolean): string {
  const kind = stateful ? "stateful target" : "stateless target (a mock)";
  const line = `${summary.total} checks against ${baseUrl}, ${kind}: ${summary.passed} passed, ${summary.failed} failed, ${summary.needsStatefulServer} need a stateful server, ${summary.needsCredential} need another credential`;
  const notes = [
    ...(summary.needsStatefulServer > 0
      ? [
          `STATEFUL lines say what each one needs${stateful ? "" : "; run with --stateful against a real server"}`,
        ]
      : []),
    ...(summary.needsCredential > 0 ? ["CREDENTIAL lines say which credential to add"] : []),
  ];
  return notes.length > 0 ? `${line} (${notes.join("; ")})` : line;
}

/** How one operation fared: its checks by outcome, and whether every valid call of it passed. */
export interface OperationSummary {
  operationId: string;
  passed: number;
  failed: number;
  needsStatefulServer: number;
  needsCredential: number;
  /** True when the target answered every valid call of the operation as the spec says. */
  answersValidCalls: boolean;
}

/** The results by operation, in the order the operations were first checked. */
export function summariseOperations(results: CheckResult[]): OperationSummary[] {
  const byOperation = new Map<string, CheckResult[]>();
  for (const result of results) {
    byOperation.set(result.operationId, [...(byOperation.get(result.operationId) ?? []), result]);
  }
  return [...byOperation].map(([operationId, checks]) => {
    const count = (outcome: Outcome) => checks.filter((check) => check.outcome === outcome).length;
    const validCalls = checks.filter((check) => check.check.startsWith("valid call"));
    return {
      operationId,
      passed: count("pass"),
      failed: count("fail"),
      needsStatefulServer: count("needs-stateful-server"),
      needsCredential: count("needs-credential"),
      answersValidCalls: validCalls.length > 0 && validCalls.every((check) => check.outcome === "pass"),
    };
  });
}

/** One report line per operation: whether the target answers it, then its checks by outcome. */
export function formatOperationLine(summary: OperationSummary): string {
  const verdict = summary.answersValidCalls ? "ANSWERS" : "NO";
  return `${verdict.padEnd(8)} ${summary.operationId}: ${summary.passed} passed, ${summary.failed} failed, ${summary.needsStatefulServer} need a stateful server, ${summary.needsCredential} need another credential`;
}
