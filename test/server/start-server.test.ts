import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/run-tool.ts";
import { sampleCredentials } from "../../src/server/index.ts";
import { shellBlocks, startServerScript, startServerScriptProcess } from "../support/guide-walkthrough.ts";
import { findFreePort } from "../support/prism.ts";
import { runGuideCommands } from "../support/run-guide-commands.ts";
import { envWithoutSandboxSettings } from "../support/start-process.ts";

const runBundled = path.join(repoRoot, "scripts", "run-bundled.mjs");

describe("npm start (scripts/start-server.ts, bundled)", () => {
  let started: Awaited<ReturnType<typeof startServerScriptProcess>>;
  beforeAll(async () => {
    started = await startServerScriptProcess(["--port", "0"]);
  });
  afterAll(() => started?.server.kill());

  it("prints the API, spec and docs URLs and the sandbox credentials", () => {
    const { banner, url } = started;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(banner).toContain(`Spec:     ${url}/openapi.json`);
    expect(banner).toContain(`Docs:     ${url}/docs`);
    expect(banner).toContain(sampleCredentials.apiKey);
    expect(banner).toContain(
      `${sampleCredentials.clientId}   (header x-client-id, with Origin http://localhost:5173 or ${url})`,
    );
    // No secret that signs nothing the user registered: it says how to get a webhook's own.
    expect(banner).not.toContain(sampleCredentials.webhookSecret);
    expect(banner).toContain(
      "  Webhooks:        register a receiver to get its signing secret: POST /sandbox/webhooks/endpoints",
    );
  });

  // The quick start itself runs with the other guides against one server: test/server/guides.test.ts.

  it("runs the webhook demo of docs/reference-server.md as written, and it leaves no endpoint behind", async () => {
    const [walkthrough] = shellBlocks("docs/reference-server.md", "Quick start").slice(1);
    // The quick start's first lines set BASE, KEY and json(), which the demo uses.
    const setup = (walkthrough as string).split("\n").slice(0, 3).join("\n");
    expect(setup).toBe(
      `BASE=http://127.0.0.1:3000\nKEY=${sampleCredentials.apiKey}\njson() { node -pe "JSON.parse(require('fs').readFileSync(0, 'utf8'))$1"; }`,
    );
    const [demo, ...more] = shellBlocks("docs/reference-server.md", "Webhooks");
    expect(more).toEqual([]);
    const port = String(await findFreePort());
    const script = `${setup.replace("http://127.0.0.1:3000", started.url)}\n${(demo as string).replaceAll("4000", port)}`;
    const result = await runGuideCommands(script);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const lines = result.stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^whsec_[0-9a-f]{48}$/);
    expect(lines.filter((line) => line === "received 0 payment.confirmed")).toHaveLength(2);
    expect(lines).toContain("[ [ 'payment.confirmed', 'delivered', 1 ] ]");
    expect(lines.at(-1)).toBe("endpoint deleted: 204");
    const endpoints = await fetch(`${started.url}/sandbox/webhooks/endpoints`, {
      headers: { "x-api-key": sampleCredentials.apiKey },
    });
    expect(await endpoints.json()).toEqual({ endpoints: [], nextCursor: null });
  });
});

describe("start-up errors", () => {
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [runBundled, startServerScript, ...args], {
      cwd: repoRoot,
      encoding: "utf8",
      env: { ...envWithoutSandboxSettings, ...env },
      timeout: 60_000,
    });

  it("exits 2 naming each bad field of a configuration file, without echoing secrets", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "payreq-config-"));
    const file = path.join(dir, "sandbox.json");
    writeFileSync(
      file,
      JSON.stringify({
        accounts: [
          {
            id: "acct",
            apiKeys: ["tooshort"],
            webhookSecret: "whsec_sandbox_long_enough",
            clientIds: [
              { id: "c", clientId: "pk_client_1", label: "x", allowedDomains: ["https://shop.example/x"] },
            ],
          },
        ],
        port: 3000,
      }),
    );
    const result = run(["--config", file]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`${file} is not a valid sandbox configuration:`);
    expect(result.stderr).toContain("  - port: unknown field; remove it or check its spelling");
    expect(result.stderr).toContain(
      "  - accounts[0].apiKeys[0]: must have at least 16 characters, got a value of 8 characters",
    );
    expect(result.stderr).toContain(
      '  - accounts[0].clientIds[0].allowedDomains[0]: must be an origin such as https://shop.example.com (no path), or self, got "https://shop.example/x"',
    );
    expect(result.stderr).not.toContain("tooshort");
  });

  it("exits 2 for a file that is not JSON, named by PAYREQ_CONFIG, and for a bad port", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "payreq-config-"));
    const file = path.join(dir, "broken.json");
    writeFileSync(file, "{ accounts: ");
    const broken = run([], { PAYREQ_CONFIG: file });
    expect(broken.status).toBe(2);
    expect(broken.stderr).toMatch(
      /broken\.json is not a valid sandbox configuration:\n {2}- is not valid JSON: /,
    );
    const port = run(["--port", "http"]);
    expect(port.status).toBe(2);
    expect(port.stderr).toContain('--port (or PORT) must be a whole number from 0 to 65535, got "http"');
  });
});
