import type { CheckedCall } from "../../proxy/checked-call.ts";
import { CommandError, UsageError } from "../cli-errors.ts";
import { type CliIo, printLine } from "../cli-io.ts";
import { describeListenError } from "../describe-listen-error.ts";
import { readHttpUrl, readPort } from "../option-values.ts";
import { parseCommandLine } from "../parse-command-line.ts";
import { watchStopSignals } from "../stop-signal.ts";

export interface ProxyCommandOptions {
  /** How the user typed the command, for usage and messages: `payreq proxy` or `npm run proxy --`. */
  command: string;
  /** Stops the proxy as SIGINT or SIGTERM do, for callers in the same process (tests). */
  stop?: Promise<unknown>;
}

function proxyUsage(command: string): string {
  return `Usage: ${command} --upstream URL [--port 4020] [--host 127.0.0.1] [--report FILE] [--junit FILE]
       [--fail-on-violation] [--strict-bodies] [--timeout MS] [--verbose]

A validating proxy: point your application (or a CI run) at it instead of the service. It passes
every call on to the upstream unchanged, answers with the upstream's answer unchanged, and checks
both against the spec (generated/openapi.json): the request's path, query, headers and body; the
answer's status, headers, content type and body. Each violation is printed as one line:
operationId, status, request or response, the member, and the rule it breaks. A request that
breaks the spec is still passed on: the proxy observes, it does not refuse.

Options:
  --upstream URL       where calls go: a deployment, or payreq serve (http://127.0.0.1:3000)
  --port P             the port to listen on (default 4020; 0 picks a free one)
  --host H             the address to listen on (default 127.0.0.1)
  --report FILE        write a JSON report of the calls and violations, kept current after
                       each call and written again when the proxy stops
  --junit FILE         the same as JUnit XML: one test suite per operation, one test case per call
  --fail-on-violation  exit with status 1 when stopped if any call broke the spec
  --strict-bodies      report body members the spec does not describe (the service ignores them)
  --timeout MS         how long the upstream may take to answer, in milliseconds (default 30000);
                       then the client gets 504
  --verbose            print a line for every call, not only for violations
  -h, --help           show this help`;
}

const proxyOptions = {
  upstream: { type: "string" },
  port: { type: "string" },
  host: { type: "string" },
  report: { type: "string" },
  junit: { type: "string" },
  "fail-on-violation": { type: "boolean" },
  "strict-bodies": { type: "boolean" },
  timeout: { type: "string" },
  verbose: { type: "boolean" },
} as const;

function readTimeout(value: string, command: string): number {
  const ms = Number(value);
  if (!/^\d+$/.test(value) || ms < 1 || ms > 600_000) {
    throw new UsageError(
      `--timeout must be a whole number of milliseconds from 1 to 600000, got "${value}"`,
      command,
    );
  }
  return ms;
}

/** Runs the validating proxy until SIGINT or SIGTERM; resolves with the exit status. */
export async function runProxy(
  args: readonly string[],
  io: CliIo,
  options: ProxyCommandOptions,
): Promise<number> {
  const { command } = options;
  const parsed = parseCommandLine(args, { command, options: proxyOptions });
  if (parsed.help) {
    printLine(io.stdout, proxyUsage(command));
    return 0;
  }
  const { values } = parsed;
  if (values.upstream === undefined) {
    throw new UsageError(
      "give the upstream to pass calls on to: --upstream URL, such as http://127.0.0.1:3000",
      command,
    );
  }
  const upstream = readHttpUrl(values.upstream, "--upstream", command, "http://127.0.0.1:3000");
  const port = readPort(values.port ?? "4020", "--port", command);
  const host = values.host ?? "127.0.0.1";
  const timeoutMs = values.timeout === undefined ? 30_000 : readTimeout(values.timeout, command);
  const verbose = values.verbose === true;

  // The spec, its validators and node:http load only once the command line is good.
  const [
    { startValidatingProxy },
    { buildProxyReport, formatProxyJUnit, writeWhole },
    { violationLine, callName },
  ] = await Promise.all([
    import("../../proxy/validating-proxy.ts"),
    import("../../proxy/proxy-reports.ts"),
    import("../../proxy/checked-call.ts"),
  ]);
  const calls: CheckedCall[] = [];
  const writeReports = () => {
    if (values.report !== undefined) {
      writeWhole(values.report, `${JSON.stringify(buildProxyReport(upstream, calls), null, 2)}\n`);
    }
    if (values.junit !== undefined) writeWhole(values.junit, formatProxyJUnit(calls));
  };
  try {
    // At once, so that a bad path fails now and a CI step finds the files even if no call comes.
    writeReports();
  } catch (error) {
    throw new CommandError(`cannot write the reports: ${(error as Error).message}`, { cause: error });
  }

  const stop = watchStopSignals();
  try {
    const proxy = await startValidatingProxy({
      upstream,
      port,
      host,
      timeoutMs,
      strictBodies: values["strict-bodies"] === true,
      onCall(call) {
        calls.push(call);
        for (const violation of call.violations) printLine(io.stdout, violationLine(call, violation));
        if (verbose && call.violations.length === 0) {
          printLine(io.stdout, `${callName(call)} ${call.status} ok (${call.method} ${call.path})`);
        }
        try {
          writeReports();
        } catch (error) {
          printLine(io.stderr, `cannot write the reports: ${(error as Error).message}`);
        }
      },
    }).catch((error: NodeJS.ErrnoException) => {
      const message = describeListenError(error, {
        host,
        port,
        what: "the proxy",
        portInUseHint: "stop what runs there, or pass --port (0 picks a free port)",
      });
      throw new CommandError(message, { cause: error });
    });
    const reports = [
      ...(values.report === undefined ? [] : [`${values.report} (JSON)`]),
      ...(values.junit === undefined ? [] : [`${values.junit} (JUnit)`]),
    ];
    printLine(
      io.stdout,
      [
        "",
        "payreq proxy is checking every call against the spec",
        `  Proxy:     ${proxy.url}   (point your application here)`,
        `  Upstream:  ${upstream}`,
        `  Reports:   ${reports.length > 0 ? reports.join(", ") : "none (--report FILE, --junit FILE)"}`,
        verbose
          ? "Every call is printed below, each violation on a line of its own."
          : "Each violation is printed below, one line each (--verbose prints every call).",
        "Stop with Ctrl+C.",
        "",
      ].join("\n"),
    );
    await Promise.race([stop.received, ...(options.stop ? [options.stop] : [])]);
    await proxy.close();
    writeReports();
    const violations = calls.reduce((sum, call) => sum + call.violations.length, 0);
    const failing = calls.filter((call) => call.violations.length > 0).length;
    printLine(
      io.stdout,
      `Checked ${calls.length} call(s): ${violations === 0 ? "no violation" : `${violations} violation(s) in ${failing} call(s)`}.`,
    );
    return values["fail-on-violation"] === true && violations > 0 ? 1 : 0;
  } finally {
    stop.dispose();
  }
}
