import { writeFileSync } from "node:fs";
import { UsageError } from "../src/cli/cli-errors.ts";
import {
  contractCommand as command,
  readContractCommandLine,
  contractUsage as usage,
} from "../src/cli/contract/contract-command-line.ts";
import { redactSecrets } from "../src/contract/check-kit.ts";
import {
  type CheckResult,
  CredentialRefusedError,
  formatJUnitReport,
  formatOperationLine,
  formatResultLine,
  formatSummary,
  planContractChecks,
  prepareContractRun,
  summariseOperations,
  summariseResults,
  UnknownOperationError,
} from "../src/contract/index.ts";

const maxUnanswered = 3;

async function main(): Promise<number> {
  let options: ReturnType<typeof readContractCommandLine>;
  try {
    options = readContractCommandLine(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`${error.message}\nRun '${command} --help' for the options.`);
    return 2;
  }
  if (!options) {
    console.log(usage);
    return 0;
  }
  const { target, stateful, strictBodies, json, byOperation, timeoutMs, onlyOperations, junitFile } = options;
  const suiteOptions = {
    stateful,
    strictBodies,
    timeoutMs,
    ...(onlyOperations ? { operations: onlyOperations } : {}),
  };
  let checks: ReturnType<typeof planContractChecks>;
  try {
    checks = planContractChecks(target, suiteOptions);
  } catch (error) {
    if (!(error instanceof UnknownOperationError)) throw error;
    console.error(`--operation: ${error.message}\nRun '${command} --help' for the options.`);
    return 2;
  }
  let run: Awaited<ReturnType<typeof prepareContractRun>>;
  try {
    run = await prepareContractRun(target, { stateful, timeoutMs });
  } catch (error) {
    if (!(error instanceof CredentialRefusedError)) throw error;
    console.error(`Stopped before the checks: ${redactSecrets(target, error.message)}`);
    return 1;
  }
  const results: CheckResult[] = [];
  let unanswered = 0;
  for (const check of checks) {
    const result = await check.run();
    results.push(result);
    if (!json && !byOperation) console.log(formatResultLine(result));
    // A server that is down would otherwise cost one timeout per check.
    if (result.outcome === "pass") unanswered = 0;
    if (result.outcome === "fail") unanswered = result.reason.startsWith("no answer") ? unanswered + 1 : 0;
    if (unanswered === maxUnanswered) {
      console.error(`Stopped: ${maxUnanswered} requests in a row got no answer from ${target.baseUrl}.`);
      break;
    }
  }
  const restored = await run.finish();
  // The report stays alone on standard output; what was put back goes to standard error.
  if (restored.length > 0) console.error(`Left the sandbox as it was found: ${restored.join("; ")}.`);
  if (junitFile !== undefined) {
    writeFileSync(junitFile, formatJUnitReport(results, `npm run contract against ${target.baseUrl}`));
  }
  const summary = summariseResults(results);
  const operations = summariseOperations(results);
  if (json) {
    console.log(JSON.stringify({ baseUrl: target.baseUrl, stateful, summary, operations, results }, null, 2));
  } else {
    if (byOperation) for (const operation of operations) console.log(formatOperationLine(operation));
    console.log(formatSummary(summary, target.baseUrl, stateful));
  }
  return summary.failed > 0 ? 1 : 0;
}

// No top-level await: scripts/run-bundled.mjs runs this as CommonJS.
main().then((code) => {
  process.exitCode = code;
});
