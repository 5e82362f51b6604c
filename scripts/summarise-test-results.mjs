// Prints the closing "N passed, N failed" line from a vitest JSON report.
import { readFileSync } from "node:fs";

const report = JSON.parse(readFileSync(process.argv[2], "utf8"));
const skipped = report.numPendingTests + report.numTodoTests;
const failedSuites = report.testResults.filter(
  (suite) => suite.status === "failed" && suite.assertionResults.length === 0,
);
for (const suite of failedSuites) console.log(`suite failed to load: ${suite.name}: ${suite.message}`);
const failed = report.numFailedTests + failedSuites.length;
console.log(`${report.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
