import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { XMLParser } from "fast-xml-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runProxy } from "../../src/cli/proxy/proxy-command.ts";
import { startPayreq } from "../cli/payreq-process.ts";
import {
  type BrokenUpstream,
  badRequestId,
  securePaymentToken,
  startBrokenUpstream,
} from "./broken-upstream.ts";

const scratch = mkdtempSync(path.join(tmpdir(), "payreq-proxy-"));
const secretKey = "sk_proxy-report-secret-9c2f";
const orchestratorKey = "orc_proxy-report-secret-71aa";

/** Runs `payreq proxy` in this process until `stop` resolves; its output captured, its URL once it listens. */
function startInProcess(args: string[]) {
  let stdout = "";
  let stderr = "";
  let stopProxy: () => void = () => {};
  const stop = new Promise<void>((resolve) => {
    stopProxy = resolve;
  });
  let onListening: (url: string) => void = () => {};
  const listening = new Promise<string>((resolve) => {
    onListening = resolve;
  });
  const status = runProxy(
    args,
    {
      stdout: {
        write: (text: string) => {
          stdout += text;
          const url = /Proxy: +(http:\/\/\S+)/.exec(stdout)?.[1];
          if (url) onListening(url);
        },
      },
      stderr: {
        write: (text: string) => {
          stderr += text;
        },
      },
      env: {},
    },
    { command: "payreq proxy", stop },
  );
  return {
    listening,
    stdout: () => stdout,
    stderr: () => stderr,
    stop: () => {
      stopProxy();
      return status;
    },
  };
}

describe("payreq proxy's reports", () => {
  let upstream: BrokenUpstream;
  beforeAll(async () => {
    upstream = await startBrokenUpstream();
  });
  afterAll(async () => {
    await upstream?.stop();
  });

  it("prints each violation, keeps the JSON and JUnit reports current, writes no credential, and exits 1 with --fail-on-violation", async () => {
    const report = path.join(scratch, "report.json");
    const junit = path.join(scratch, "junit.xml");
    const run = startInProcess([
      "--upstream",
      upstream.baseUrl,
      "--port",
      "0",
      "--report",
      report,
      "--junit",
      junit,
      "--fail-on-violation",
    ]);
    const url = await run.listening;
    expect(JSON.parse(readFileSync(report, "utf8"))).toEqual({
      upstream: upstream.baseUrl,
      calls: 0,
      callsWithViolations: 0,
      violations: [],
    });
    const credentials = {
      "x-api-key": secretKey,
      "x-orchestrator-key": orchestratorKey,
      authorization: `Bearer ${secretKey}`,
      cookie: `session_token=${secretKey}`,
    };
    await fetch(`${url}/v2/secure-payments`, {
      method: "POST",
      headers: { ...credentials, "content-type": "application/json" },
      body: JSON.stringify({ requests: [], reference: secretKey }),
    });
    // Kept current after each call: the report already holds the first call.
    expect(JSON.parse(readFileSync(report, "utf8")).calls).toBe(1);
    await fetch(`${url}/v2/secure-payments/${securePaymentToken}`, { headers: credentials });
    expect(await run.stop()).toBe(1);

    const pattern = '"^01[0-9a-f]{64}$"';
    expect(run.stdout().split("\n").slice(-5)).toEqual([
      "createSecurePayment 201 request /body/requests: must NOT have fewer than 1 items",
      `createSecurePayment 201 response /requestIds/0: must match pattern ${pattern}`,
      "checkSecurePaymentToken 418 response status: is not documented",
      "Checked 2 call(s): 3 violation(s) in 2 call(s).",
      "",
    ]);
    const json = readFileSync(report, "utf8");
    expect(JSON.parse(json)).toEqual({
      upstream: upstream.baseUrl,
      calls: 2,
      callsWithViolations: 2,
      violations: [
        {
          operationId: "createSecurePayment",
          method: "POST",
          path: "/v2/secure-payments",
          status: 201,
          side: "request",
          member: "/body/requests",
          rule: "must NOT have fewer than 1 items",
          requestId: "req-broken-201",
        },
        {
          operationId: "createSecurePayment",
          method: "POST",
          path: "/v2/secure-payments",
          status: 201,
          side: "response",
          member: "/requestIds/0",
          rule: `must match pattern ${pattern}`,
          requestId: "req-broken-201",
        },
        {
          operationId: "checkSecurePaymentToken",
          method: "GET",
          path: "/v2/secure-payments/{token}",
          status: 418,
          side: "response",
          member: "status",
          rule: "is not documented",
          requestId: "req-broken-418",
        },
      ],
    });

    const xml = readFileSync(junit, "utf8");
    const parsed = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "",
      isArray: (name) => ["testsuite", "testcase"].includes(name),
    }).parse(xml);
    expect(parsed.testsuites).toMatchObject({ name: "payreq proxy", tests: "2", failures: "2" });
    expect(
      parsed.testsuites.testsuite.map(
        (suite: {
          name: string;
          testcase: { name: string; failure: { message: string; "#text": string } }[];
        }) => ({
          suite: suite.name,
          cases: suite.testcase.map((testCase) => [
            testCase.name,
            testCase.failure.message,
            testCase.failure["#text"],
          ]),
        }),
      ),
    ).toEqual([
      {
        suite: "createSecurePayment",
        cases: [
          [
            "#1 POST /v2/secure-payments 201",
            `request /body/requests: must NOT have fewer than 1 items; response /requestIds/0: must match pattern ${pattern}`,
            `createSecurePayment 201 request /body/requests: must NOT have fewer than 1 items\ncreateSecurePayment 201 response /requestIds/0: must match pattern ${pattern}`,
          ],
        ],
      },
      {
        suite: "checkSecurePaymentToken",
        cases: [
          [
            "#2 GET /v2/secure-payments/{token} 418",
            "response status: is not documented",
            "checkSecurePaymentToken 418 response status: is not documented",
          ],
        ],
      },
    ]);
    for (const text of [json, xml, run.stdout(), run.stderr()]) {
      expect(text).not.toContain(secretKey);
      expect(text).not.toContain(orchestratorKey);
      expect(text).not.toContain(securePaymentToken);
      expect(text).not.toContain(badRequestId);
    }
  });

  it("exits 0 with --fail-on-violation when every call kept to the spec, and prints each call with --verbose", async () => {
    const report = path.join(scratch, "clean.json");
    const run = startInProcess([
      "--upstream",
      upstream.baseUrl,
      "--port",
      "0",
      "--report",
      report,
      "--fail-on-violation",
      "--verbose",
    ]);
    const url = await run.listening;
    // The upstream's 404 Problem is a documented answer of the operation.
    const answer = await fetch(`${url}/v2/request/01${"ab".repeat(32)}`, {
      headers: { "x-api-key": secretKey },
    });
    expect(answer.status).toBe(404);
    expect(await run.stop()).toBe(0);
    expect(run.stdout().split("\n").slice(-3)).toEqual([
      "getRequestStatus 404 ok (GET /v2/request/{requestId})",
      "Checked 1 call(s): no violation.",
      "",
    ]);
    expect(JSON.parse(readFileSync(report, "utf8"))).toMatchObject({ calls: 1, violations: [] });
  });

  it("runs as `payreq proxy`, prints violations as they come, and writes its reports when stopped with SIGTERM", async () => {
    const report = path.join(scratch, "spawned.json");
    const proxy = await startPayreq(
      ["proxy", "--upstream", upstream.baseUrl, "--port", "0", "--report", report, "--fail-on-violation"],
      /Stop with Ctrl\+C\./,
    );
    try {
      const url = (await proxy.waitFor(/Proxy: +(http:\/\/\S+)/))[1];
      expect(proxy.output()).toContain(`  Upstream:  ${upstream.baseUrl}\n  Reports:   ${report} (JSON)\n`);
      const answer = await fetch(`${url}/v1/currencies`, { headers: { "x-api-key": secretKey } });
      expect(await answer.text()).toBe("USDC");
      await proxy.waitFor(/listCurrencies 200 response header content-type: /);
      expect(await proxy.stop("SIGTERM")).toBe(1);
      expect(proxy.output()).toContain(
        "listCurrencies 200 response header x-request-id: is missing\n" +
          'listCurrencies 200 response header content-type: "text/plain" is not documented for 200 (expected application/json)\n' +
          "Checked 1 call(s): 2 violation(s) in 1 call(s).\n",
      );
      expect(JSON.parse(readFileSync(report, "utf8")).violations).toHaveLength(2);
      expect(proxy.output()).not.toContain(secretKey);
    } finally {
      await proxy.kill();
    }
  });
});
