import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/run-tool.ts";
import { readPathOperations } from "../../src/spec/operations.ts";
import { createSchemaValidator } from "../../src/spec/schema-validator.ts";
import { getAtPointer, loadBundledSpec } from "../../src/spec/spec-document.ts";
import { findFreePort } from "../support/prism.ts";
import { runToEnd } from "../support/run-to-end.ts";
import { envWithoutSandboxSettings, type RunningProcess, startProcess } from "../support/start-process.ts";

const tsx = path.join(repoRoot, "node_modules", ".bin", "tsx");
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

/** Starts `npm run mock -- ...args` (the script itself) and resolves once it announces itself. */
async function startMockScript(args: string[]): Promise<RunningProcess> {
  const mock = await startProcess(tsx, [script, ...args], {
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
  it("serves the spec's examples and prints where it listens", async () => {
    const port = await findFreePort();
    const mock = await startMockScript(["--port", String(port)]);
    const base = `http://127.0.0.1:${port}`;
    expect(mock.output()).toContain(
      "payreq mock (Prism, spec examples) is serving the Payment Request Service API",
    );
    expect(mock.output()).toContain(`API:   ${base}  (try: curl -H 'x-api-key: any' ${base}/v1/currencies)`);
    expect(currenciesExample).toBeDefined();
    expect(await getCurrencies(base)).toEqual(currenciesExample);
    expect((await fetch(`${base}/v1/currencies`)).status).toBe(401);
  });

  it("generates data from the schemas with --dynamic", async () => {
    const port = await findFreePort();
    const mock = await startMockScript(["--port", String(port), "--dynamic"]);
    expect(mock.output()).toContain("payreq mock (Prism, dynamic data)");
    const answer = await getCurrencies(`http://127.0.0.1:${port}`);
    expect(createSchemaValidator(spec).errorsFor(currenciesSchema, answer)).toEqual([]);
    expect(answer).not.toEqual(currenciesExample);
  });

  it("names itself in the pointer to its help after a bad command line, and exits 2", async () => {
    const run = await runToEnd(tsx, [script, "--port", "http"], {
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
