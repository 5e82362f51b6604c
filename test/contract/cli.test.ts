import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/run-tool.ts";
import { UsageError } from "../../src/cli/cli-errors.ts";
import { contractCommand, readContractCommandLine } from "../../src/cli/contract/contract-command-line.ts";
import { sampleCredentials } from "../../src/server/index.ts";
import { readPathOperations } from "../../src/spec/operations.ts";
import { startServerScriptProcess } from "../support/guide-walkthrough.ts";
import { findFreePort } from "../support/prism.ts";
import { type FinishedRun, runToEnd } from "../support/run-to-end.ts";
import { type SharedPrism, sharedPrism } from "../support/shared-prism.ts";
import { type BrokenServer, startBrokenServer } from "./broken-server.ts";

const runBundled = path.join(repoRoot, "scripts", "run-bundled.mjs");
const script = path.join(repoRoot, "scripts", "contract.ts");
const secretKey = "sk_test_do-not-print-4f9a1c2e";
const scratch = mkdtempSync(path.join(tmpdir(), "payreq-contract-cli-"));

/** Runs `npm run contract -- ...` (the script itself). */
function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<FinishedRun> {
  return runToEnd(process.execPath, [runBundled, script, ...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env },
  });
}

describe("npm run contract: arguments", () => {
  it("prints its usage with --help", async () => {
    const run = await runCli(["--help"]);
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(
      /^Usage: npm run contract -- --base-url URL \(--api-key KEY \| --client-id ID --origin ORIGIN\)/,
    );
    expect(run.stdout).toContain("--stateful");
  });

  it.each([
    [["--api-key", "k"], "--base-url is required"],
    [
      ["--base-url", "ftp://example.com", "--api-key", "k"],
      '--base-url must be an http(s) URL such as http://127.0.0.1:3000, got "ftp://example.com"',
    ],
    [
      ["--base-url", "http://user:hunter2@127.0.0.1:1", "--api-key", "k"],
      "--base-url must not carry credentials in the URL",
    ],
    [
      ["--base-url", "http://127.0.0.1:1"],
      "give a credential: --api-key KEY (or PAYREQ_API_KEY), or --client-id ID --origin ORIGIN",
    ],
    [
      ["--base-url", "http://127.0.0.1:1", "--client-id", "c"],
      "--client-id needs --origin (one of its allowed domains)",
    ],
    [
      ["--base-url", "http://127.0.0.1:1", "--api-key", "k", "--client-id", "c"],
      "give either --api-key or --client-id, not both",
    ],
    [
      ["--base-url", "http://127.0.0.1:1", "--client-id", "c", "--origin", "https://a.example/path"],
      '--origin must be a bare origin (scheme, host, port), got "https://a.example/path"',
    ],
    [
      ["--base-url", "http://127.0.0.1:1", "--api-key", "k", "--extra-api-key", "k2"],
      "the extra credential must be of the other kind than the first (API key vs client ID)",
    ],
    [
      ["--base-url", "http://127.0.0.1:1", "--api-key", "k", "--timeout", "soon"],
      '--timeout must be a whole number of milliseconds, got "soon"',
    ],
  ])("rejects %j with a clear message", (args, message) => {
    expect(() => readContractCommandLine(args, { PAYREQ_API_KEY: "" })).toThrow(
      new UsageError(message, contractCommand),
    );
  });

  it.each([
    [["--base-url", "http://127.0.0.1:1", "--api-key", "k", "--bogus"], "unknown option --bogus"],
    [
      ["--base-url", "http://127.0.0.1:1", "--api-key", "k", "--operation", "createSecurePayments"],
      '--operation: no operation of the spec has the operationId "createSecurePayments"',
    ],
  ])("run with %j, says so in one line, pointing to --help, with exit status 2", async (args, message) => {
    const run = await runCli(args, { PAYREQ_API_KEY: "" });
    expect(run.status).toBe(2);
    expect(run.stderr).toBe(`${message}\nRun 'npm run contract -- --help' for the options.\n`);
    expect(run.stdout).toBe("");
  });
});

const pathOperationIds = readPathOperations().map((operation) => operation.operationId);
const clientIdOnlyOperations = [
  "createPayeeDestination",
  "deactivatePayeeDestination",
  "getActivePayeeDestination",
  "getPayeeDestination",
  "getPayeeDestinationSigningData",
];

// Prism takes any client ID from any origin.
const anyClientIdForTheMock = ["--extra-client-id", "any", "--extra-origin", "https://app.example"];

describe("npm run contract: reports", () => {
  let prism: SharedPrism | undefined;
  /** `npm run contract` against the shared mock with the secret key, and `args` besides. */
  const againstMock = (...args: string[]) =>
    runCli(["--base-url", prism?.baseUrl ?? "", "--api-key", secretKey, ...args]);
  let broken: BrokenServer | undefined;
  beforeAll(async () => {
    [prism, broken] = await Promise.all([sharedPrism(), startBrokenServer()]);
  });
  afterAll(async () => {
    await broken?.stop();
  });

  // Prism reads the closed body schemas literally, so it runs in the strict-bodies mode.
  it("passes the mock: one line per check of the chosen operations, a summary, exit 0, and never the key", async () => {
    const chosen = ["listCurrencies", "createSecurePayment"];
    const run = await againstMock(
      "--strict-bodies",
      ...chosen.flatMap((operationId) => ["--operation", operationId]),
    );
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines[0]).toBe("PASS     listCurrencies › valid call (API key): 200 application/json");
    expect(lines).toContain(
      "STATEFUL listCurrencies › wrong API key -> 401: Prism accepts any API key value",
    );
    const checkLines = lines.slice(0, -1);
    expect(checkLines.every((line) => /^(PASS|STATEFUL) {1,5}\w+ › /.test(line))).toBe(true);
    expect(new Set(checkLines.map((line) => line.split(/ +/)[1]))).toEqual(new Set(chosen));
    expect(lines.at(-1)).toMatch(
      new RegExp(
        `^${checkLines.length} checks against ${prism?.baseUrl}, stateless target \\(a mock\\): \\d+ passed, 0 failed, \\d+ need a stateful server, \\d+ need another credential`,
      ),
    );
    expect(run.stdout + run.stderr).not.toContain(secretKey);
  });

  // The whole suite's --json report against the mock is docs/contract-suite.md's example, run by
  // test/docs/contract-suite-guide.test.ts; here, the operations of two kinds are enough.
  it("takes the key from PAYREQ_API_KEY and prints JSON with --json: each chosen operation answers but those that take only a client ID", async () => {
    const chosen = ["listCurrencies", "submitRecurringPaymentSignature", ...clientIdOnlyOperations];
    const junitFile = path.join(scratch, "mock-junit.xml");
    const run = await runCli(
      [
        "--base-url",
        prism?.baseUrl ?? "",
        "--json",
        "--junit",
        junitFile,
        "--strict-bodies",
        ...chosen.flatMap((operationId) => ["--operation", operationId]),
      ],
      { PAYREQ_API_KEY: secretKey },
    );
    expect(run.status).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ baseUrl: prism?.baseUrl, stateful: false, summary: { failed: 0 } });
    expect(report.results[0]).toEqual({
      operationId: "listCurrencies",
      check: "valid call (API key)",
      outcome: "pass",
      reason: "200 application/json",
    });
    expect(report.operations).toContainEqual({
      operationId: "submitRecurringPaymentSignature",
      passed: expect.any(Number),
      failed: 0,
      needsStatefulServer: expect.any(Number),
      needsCredential: 0,
      answersValidCalls: true,
    });
    expect(report.operations.map((operation: { operationId: string }) => operation.operationId)).toEqual(
      pathOperationIds.filter((operationId) => chosen.includes(operationId)),
    );
    // With a key alone, the operations that take only a client ID cannot be called validly.
    const unanswered = report.operations
      .filter((operation: { answersValidCalls: boolean }) => !operation.answersValidCalls)
      .map((operation: { operationId: string }) => operation.operationId);
    expect(unanswered.toSorted()).toEqual(clientIdOnlyOperations);
    expect(run.stdout).not.toContain(secretKey);

    // Their checks are not sent, for want of a client ID; the JUnit report skips them and says why.
    const { summary } = report;
    const notSent = report.results.filter(
      (result: { outcome: string }) => result.outcome === "needs-credential",
    );
    expect(notSent).toHaveLength(summary.needsCredential);
    expect(notSent.length).toBeGreaterThan(0);
    for (const result of notSent) expect(result.reason).toMatch(/^needs a client ID \(--client-id/);
    const junit = readFileSync(junitFile, "utf8");
    expect(junit).toContain(
      `<testsuites name="npm run contract against ${prism?.baseUrl}" tests="${summary.total}" failures="0" errors="0" skipped="${summary.needsStatefulServer + summary.needsCredential}">`,
    );
    expect(junit.match(/<testsuite /g)).toHaveLength(chosen.length);
    expect(junit).toContain(
      '<testcase classname="createPayeeDestination" name="valid call">\n      <skipped/>\n      <system-out><![CDATA[needs another credential: needs a client ID',
    );
    expect(junit).not.toContain(secretKey);
  });

  it("prints one line per operation with --by-operation: with a client ID besides the key, the client-ID-only operations answer too", async () => {
    // The full JSON pass above shows every other operation answering with the key alone.
    const chosen = ["createPayout", ...clientIdOnlyOperations];
    const run = await againstMock(
      "--by-operation",
      ...anyClientIdForTheMock,
      ...chosen.flatMap((operationId) => ["--operation", operationId]),
    );
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines.slice(0, -1).map((line) => line.split(":")[0])).toEqual(
      pathOperationIds
        .filter((operationId) => chosen.includes(operationId))
        .map((operationId) => `ANSWERS  ${operationId}`),
    );
    for (const line of lines.slice(0, -1)) {
      expect(line).toMatch(
        /^ANSWERS {2}\w+: \d+ passed, 0 failed, \d+ need a stateful server, 0 need another credential$/,
      );
    }
  });

  it("says NO for an operation that takes only a client ID when given only a key", async () => {
    const run = await againstMock(
      "--by-operation",
      "--operation",
      "createPayout",
      "--operation",
      "createPayeeDestination",
    );
    expect(run.status).toBe(0);
    const lines = run.stdout.trim().split("\n");
    expect(lines.slice(0, -1).map((line) => line.split(":")[0])).toEqual([
      "ANSWERS  createPayout",
      "NO       createPayeeDestination",
    ]);
  });

  it("stops early when the server does not answer", async () => {
    const port = await findFreePort();
    const base = `http://127.0.0.1:${port}`;
    const run = await runCli(["--base-url", base, "--api-key", secretKey, "--stateful"]);
    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toBe(`Stopped: 3 requests in a row got no answer from ${base}.`);
    expect(run.stdout.trim().split("\n").at(-1)).toBe(
      `3 checks against ${base}, stateful target: 0 passed, 3 failed, 0 need a stateful server, 0 need another credential`,
    );
  });

  // The whole suite's verdicts on a broken server are suite-verdicts.test.ts's; here, its report.
  it("fails a broken server with FAIL lines and exit 1", async () => {
    const run = await runCli([
      "--base-url",
      broken?.baseUrl ?? "",
      "--api-key",
      secretKey,
      "--stateful",
      "--operation",
      "listCurrencies",
      "--operation",
      "createSecurePayment",
      "--junit",
      path.join(scratch, "broken-junit.xml"),
    ]);
    expect(run.status).toBe(1);
    const junit = readFileSync(path.join(scratch, "broken-junit.xml"), "utf8");
    expect(junit).toContain(
      '<testcase classname="listCurrencies" name="no credentials -> 401">\n      <failure message="answered 200, expected 401; body: {&quot;ok&quot;:true}"/>',
    );
    expect(run.stdout).toContain(
      'FAIL     listCurrencies › no credentials -> 401: answered 200, expected 401; body: {"ok":true}',
    );
    expect(run.stdout.trim().split("\n").at(-1)).toMatch(
      / checks against .*, stateful target: 0 passed, \d+ failed, /,
    );
  });
});

describe("npm run contract: against npm start", () => {
  let started: Awaited<ReturnType<typeof startServerScriptProcess>>;
  beforeAll(async () => {
    started = await startServerScriptProcess(["--port", "0"]);
  });
  afterAll(() => started?.server.kill());

  const apiKey = sampleCredentials.apiKey;
  // biome-ignore lint/suspicious/noExplicitAny: the assertions below check the shapes they read
  const read = async (path: string): Promise<any> =>
    (await fetch(`${started.url}${path}`, { headers: { "x-api-key": apiKey } })).json();

  it("ends with one message, before any check, when the API key is refused", async () => {
    const run = await runCli(["--base-url", started.url, "--api-key", secretKey, "--stateful"]);
    expect(run.status).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr.trim()).toBe(
      `Stopped before the checks: ${started.url} refused the API key (GET /v1/currencies answered 401): check the API key and run again.`,
    );
  });

  it("leaves the server's clock and webhook endpoints as it found them, twice over", async () => {
    const created = await fetch(`${started.url}/v2/secure-payments`, {
      method: "POST",
      headers: { "x-api-key": apiKey, "content-type": "application/json" },
      body: JSON.stringify({
        requests: [
          {
            payee: "0x6923831ACf5c327260D7ac7C9DfF5b1c3cB3C7D7",
            amount: "10",
            invoiceCurrency: "USD",
            paymentCurrency: "USDC-base",
          },
        ],
      }),
    });
    const { token } = (await created.json()) as { token: string };
    const linkBefore = await read(`/v2/secure-payments/${token}`);
    const clockBefore = await read("/sandbox/clock");
    const endpointsBefore = await read("/sandbox/webhooks/endpoints");
    const faultsBefore = await read("/sandbox/faults");

    // The operations whose checks move the clock, register endpoints, create faults or change links: the whole
    // suite runs statefully in-process in against-reference-server.test.ts.
    const footprintOperations = [
      "setSandboxClock",
      "createSandboxWebhookEndpoint",
      "rotateSandboxWebhookEndpointSecret",
      "sendSandboxWebhookTest",
      "updateSandboxSecurePayment",
      "checkSecurePaymentToken",
      "createSandboxFault",
    ].flatMap((operationId) => ["--operation", operationId]);
    for (let run = 1; run <= 2; run++) {
      const result = await runCli([
        "--base-url",
        started.url,
        "--api-key",
        apiKey,
        "--stateful",
        ...footprintOperations,
      ]);
      expect(
        result.status,
        result.stdout
          .split("\n")
          .filter((line) => line.startsWith("FAIL"))
          .join("\n"),
      ).toBe(0);
      expect(result.stderr).toMatch(
        /^Left the sandbox as it was found: put the sandbox clock back where it was; deleted the \d+ webhook endpoints the run registered\.\n$/,
      );
    }

    const clockAfter = await read("/sandbox/clock");
    // The offset is put back through `now`: the time between reading and setting is all it can drift.
    expect(Math.abs(clockAfter.offsetSeconds - clockBefore.offsetSeconds)).toBeLessThan(1);
    expect(await read("/sandbox/webhooks/endpoints")).toEqual(endpointsBefore);
    // Each fault a valid call creates is deleted as soon as it is answered.
    expect(await read("/sandbox/faults")).toEqual(faultsBefore);
    const linkAfter = await read(`/v2/secure-payments/${token}`);
    expect(linkAfter.status).toBe("pending");
    expect(linkAfter.expiresAt).toBe(linkBefore.expiresAt);
  });
});
