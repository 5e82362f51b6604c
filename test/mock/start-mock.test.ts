import { once } from "node:events";
import { createServer as createNetServer } from "node:net";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/run-tool.ts";
import { readPathOperations } from "../../src/spec/operations.ts";
import { createSchemaValidator } from "../../src/spec/schema-validator.ts";
import { getAtPointer, loadBundledSpec } from "../../src/spec/spec-document.ts";
import { findFreePort } from "../support/prism.ts";
import { runToEnd } from "../support/run-to-end.ts";
import { envWithoutSandboxSettings, type RunningProcess, startProcess } from "../support/start-process.ts";

const runBundled = path.join(repoRoot, "scripts", "run-bundled.mjs");
const script = path.join(repoRoot, "scripts", "start-mock.ts");
const spec = loadBundledSpec();
/** The first example of GET /v1/currencies' 200 answer, the one Prism serves without --dynamic. */
const currenciesExample = getAtPointer(spec, "/components/examples/CurrencyListMainnet/value");
const currenciesSchema = readPathOperations(spec).find(
  (operation) => operation.operationId === "listCurrencies",
)?.responses["200"]?.content["application/json"]?.schema;

const started: RunningProcess[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((mock) => mock.kill()));
});

/** Starts `npm run mock -- ...args` (its command without npm) and resolves once it announces itself. */
async function startMockScript(args: string[]): Promise<RunningProcess> {
  const mock = await startProcess(process.execPath, [runBundled, script, ...args], {
    name: `npm run mock -- ${args.join(" ")}`,
    ready: /Stop with Ctrl\+C\./,
  });
  started.push(mock);
  return mock;
}

async function getCurrencies(base: string): Promise<unknown> {
  const answer = await fetch(`${base}/v1/currencies`, { headers: { "x-api-key": "any" } });
  expect(answer.status).toBe(200);
  return answer.json();
}

describe("npm run mock", () => {
  // One start for two options: each Prism start takes seconds.
  it("generates data from the schemas with --dynamic, and prints a URL one can open when listening on every interface", async () => {
    const port = await findFreePort();
    const mock = await startMockScript(["--port", String(port), "--dynamic", "--host", "0.0.0.0"]);
    const base = `http://127.0.0.1:${port}`;
    expect(mock.output()).toContain("payreq mock (Prism, dynamic data)");
    expect(mock.output()).toContain(`API:   ${base}  (try: curl -H 'x-api-key: any' ${base}/v1/currencies)`);
    const answer = await getCurrencies(base);
    expect(createSchemaValidator(spec).errorsFor(currenciesSchema, answer)).toEqual([]);
    expect(answer).not.toEqual(currenciesExample);
  });

  it("serves the spec's examples, prints where it listens, and is quiet: the banner, then only Prism's errors", async () => {
    const port = await findFreePort();
    const mock = await startMockScript(["--port", String(port)]);
    const base = `http://127.0.0.1:${port}`;
    const banner = mock.output();
    expect(
      banner.startsWith("\npayreq mock (Prism, spec examples) is serving the Payment Request Service API"),
    ).toBe(true);
    expect(banner).toContain(`API:   ${base}  (try: curl -H 'x-api-key: any' ${base}/v1/currencies)`);
    expect(currenciesExample).toBeDefined();
    expect(await getCurrencies(base)).toEqual(currenciesExample);
    expect(banner.trimEnd().split("\n").slice(-2)).toEqual([
      "  Log:   Prism's errors only (--verbose prints every request)",
      "Stop with Ctrl+C.",
    ]);
    for (let call = 0; call < 3; call++) await getCurrencies(base);
    expect((await fetch(`${base}/v1/currencies`)).status).toBe(401);
    // Prism logs in order: once the refusal is in, the valid calls would have been too.
    await mock.waitFor(/Violation: request Invalid security scheme used\n/);
    const afterBanner = mock.output().slice(banner.length).trimEnd().split("\n");
    expect(afterBanner.map((line) => line.replace(/^\[[^\]]+\] › +/, ""))).toEqual([
      "[VALIDATOR] ✖  error     Invalid security scheme used",
      "[VALIDATOR] ✖  error     Violation: request Invalid security scheme used",
    ]);
  });

  it("prints Prism's whole log with --verbose: every route, then each request", async () => {
    const port = await findFreePort();
    const mock = await startMockScript(["--port", String(port), "--verbose"]);
    expect(mock.output()).toContain(`Prism is listening on http://127.0.0.1:${port}`);
    expect(mock.output()).toContain("  Log:   Prism's whole log");
    // The banner comes after Prism's own start-up lines, not among them.
    expect(mock.output().indexOf("Prism is listening")).toBeLessThan(
      mock.output().indexOf("payreq mock (Prism"),
    );
    const routes = mock.output().match(/\[CLI\] ℹ {2}info {6}(GET|POST|PUT|PATCH|DELETE) +http/g) ?? [];
    const operations = Object.values(spec.paths as Record<string, Record<string, unknown>>).flatMap((item) =>
      Object.keys(item).filter((key) => ["get", "post", "put", "patch", "delete"].includes(key)),
    );
    expect(routes).toHaveLength(operations.length);
    await getCurrencies(`http://127.0.0.1:${port}`);
    await mock.waitFor(/\[HTTP SERVER\] get \/v1\/currencies ℹ {2}info {6}Request received/);
  });

  it("says so when the port is in use, and exits 1", async () => {
    const port = await findFreePort();
    const holder = createNetServer().listen(port, "127.0.0.1");
    await once(holder, "listening");
    try {
      const run = await runToEnd(process.execPath, [runBundled, script, "--port", String(port)], {
        cwd: repoRoot,
        env: envWithoutSandboxSettings,
      });
      expect(run.status).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toBe(
        `port ${port} on 127.0.0.1 is already in use: stop what runs there, or pass --port\n`,
      );
    } finally {
      holder.close();
    }
  });

  it("names itself in the pointer to its help after a bad command line, and exits 2", async () => {
    const run = await runToEnd(process.execPath, [runBundled, script, "--port", "http"], {
      cwd: repoRoot,
      env: envWithoutSandboxSettings,
    });
    expect(run.status).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe(
      '--port (or PORT) must be a whole number from 1 to 65535, got "http"\n' +
        "Run 'npm run mock -- --help' for the options.\n",
    );
  });
});
