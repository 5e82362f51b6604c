import junitReportBuilder, { type Builder } from "junit-report-builder";
import type { CheckResult } from "./target.ts";

// The package is CommonJS (module.exports = a builder) but its types declare an ES default export,
// which NodeNext then reads as the module object: the default import is the builder itself.
export const reportBuilder = junitReportBuilder as unknown as Builder;

const notRunLabels: Partial<Record<CheckResult["outcome"], string>> = {
  "needs-stateful-server": "needs a stateful server",
  "needs-credential": "needs another credential",
};

/**
 * The results as a JUnit XML report, for CI systems: one test suite per operation, one test case
 * per check. A failed check carries its reason as the failure message; a check not sent is
 * skipped, its reason on the case's standard output (JUnit's skipped element takes no message
 * here). Reasons are already free of credentials.
 */
export function formatJUnitReport(results: readonly CheckResult[], suiteName: string): string {
  const builder = reportBuilder.newBuilder().name(suiteName);
  const suites = new Map<string, ReturnType<typeof builder.testSuite>>();
  for (const result of results) {
    let suite = suites.get(result.operationId);
    if (!suite) {
      suite = builder.testSuite().name(result.operationId);
      suites.set(result.operationId, suite);
    }
    const testCase = suite.testCase().className(result.operationId).name(result.check);
    const notRun = notRunLabels[result.outcome];
    if (result.outcome === "fail") testCase.failure(result.reason);
    else if (notRun) testCase.skipped().standardOutput(`${notRun}: ${result.reason}`);
  }
  return builder.build();
}
