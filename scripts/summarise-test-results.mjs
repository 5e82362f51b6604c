// Prints the closing "N passed, N failed" line from a vitest JSON report.
import { readFileSync } from "node:fs";

const report = JSON.parse(readFileSync(process.argv[2], "utf8"));
const skipped = report.numPendingTests + report.numTodoTests;
// A suite that failed outside its tests (import error, failing beforeAll) counts as one failure.
const failedSuites = report.testResults.filter(
  (suite) =>
    suite.status === "failed" && !suite.assertionResults.some((result) => result.status === "failed"),
);
for (const suite of failedSuites)
  console.log(`suite failed outside its tests: ${suite.name}: ${suite.message}`);
const failed = report.numFailedTests + failedSuites.length;
console.log(`${report.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
