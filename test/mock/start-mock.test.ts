import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { findFreePort } from "../support/prism.ts";
import { repoRoot } from "../support/spec-document.ts";

const tsx = path.join(repoRoot, "node_modules", ".bin", "tsx");
const script = path.join(repoRoot, "scripts", "start-mock.ts");
let running: ChildProcess | undefined;

afterEach(async () => {
  if (running?.pid !== undefined && running.exitCode === null && running.signalCode === null) {
    const exited = once(running, "exit");
    process.kill(-running.pid, "SIGTERM");
    await exited;
  }
  running = undefined;
});

/** Starts `npm run mock`'s script in its own process group and resolves with its output once it announces itself. */
async function startMockScript(args: string[]): Promise<string> {
  const child = spawn(tsx, [script, ...args], {
    cwd: repoRoot,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  running = child;
  let output = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  return new Promise((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (output.includes("Stop with Ctrl+C.")) resolve(output);
    });
    child.on("exit", (code) =>
      reject(new Error(`the mock exited with ${code} before it was ready:\n${output}`)),
    );
  });
}

describe("npm run mock", () => {
  it("serves the spec's examples and prints where it listens", async () => {
    const port = await findFreePort();
    const output = await startMockScript(["--port", String(port)]);
    const base = `http://127.0.0.1:${port}`;
    expect(output).toContain("payreq mock (Prism, spec examples) is serving the Payment Request Service API");
    expect(output).toContain(`API:   ${base}  (try: curl -H 'x-api-key: any' ${base}/v1/currencies)`);
    const response = await fetch(`${base}/v1/currencies?network=base`, { headers: { "x-api-key": "any" } });
    expect(response.status).toBe(200);
    expect((await fetch(`${base}/v1/currencies`)).status).toBe(401);
  });

  it("generates data from the schemas with --dynamic", async () => {
    const port = await findFreePort();
    const output = await startMockScript(["--port", String(port), "--dynamic"]);
    expect(output).toContain("payreq mock (Prism, dynamic data)");
  });

  it("rejects a bad port with a clear message and exit status 2", () => {
    const result = spawnSync(tsx, [script, "--port", "http"], { cwd: repoRoot, encoding: "utf8" });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--port must be a whole number from 1 to 65535, got "http"');
  });
});
