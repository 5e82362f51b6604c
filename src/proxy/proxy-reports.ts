import { renameSync, writeFileSync } from "node:fs";
import { reportBuilder } from "../contract/junit-report.ts";
import { type CheckedCall, callName, violationLine } from "./checked-call.ts";

/** One violation of the JSON report: the call it was found in and what it broke. */
export interface ReportedViolation {
  operationId: string | null;
  method: string;
  /** The path template; for a call of no operation, its path with possible secrets written `{…}`. */
  path: string;
  status: number;
  side: CheckedCall["violations"][number]["side"];
  member: string;
  rule: string;
  requestId: string | null;
}

export interface ProxyReport {
  upstream: string;
  calls: number;
  callsWithViolations: number;
  violations: ReportedViolation[];
}

/** The calls checked so far as the JSON report. */
export function buildProxyReport(upstream: string, calls: readonly CheckedCall[]): ProxyReport {
  return {
    upstream,
    calls: calls.length,
    callsWithViolations: calls.filter((call) => call.violations.length > 0).length,
    violations: calls.flatMap((call) =>
      call.violations.map((violation) => ({
        operationId: call.operationId ?? null,
        method: call.method,
        path: call.path,
        status: call.status,
        side: violation.side,
        member: violation.member,
        rule: violation.rule,
        requestId: call.requestId ?? null,
      })),
    ),
  };
}

/**
 * The calls as JUnit XML: one test suite per operation (`METHOD path` for calls of none), one test
 * case per call, named by its order, method, path template and status. A call that broke the spec
 * fails: the failure's message lists its violations, and its body holds them one a line.
 */
export function formatProxyJUnit(calls: readonly CheckedCall[]): string {
  const builder = reportBuilder.newBuilder().name("payreq proxy");
  const suites = new Map<string, ReturnType<typeof builder.testSuite>>();
  for (const [index, call] of calls.entries()) {
    const name = callName(call);
    let suite = suites.get(name);
    if (!suite) {
      suite = builder.testSuite().name(name);
      suites.set(name, suite);
    }
    const testCase = suite
      .testCase()
      .className(name)
      .name(`#${index + 1} ${call.method} ${call.path} ${call.status}`);
    if (call.violations.length > 0) {
      const lines = call.violations.map((violation) => violationLine(call, violation));
      testCase
        .failure(
          call.violations
            .map((violation) => `${violation.side} ${violation.member}: ${violation.rule}`)
            .join("; "),
          "violation",
        )
        .stacktrace(lines.join("\n"));
    }
  }
  return builder.build();
}

/** Writes a file whole or not at all: a reader (a CI step after the proxy was killed) never sees half of it. */
export function writeWhole(file: string, text: string): void {
  const partial = `${file}.partial`;
  writeFileSync(partial, text);
  renameSync(partial, file);
}
