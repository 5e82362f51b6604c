import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot } from "../../scripts/run-tool.ts";
import { sampleCredentials } from "../../src/server/index.ts";
import {
  runWalkthrough,
  shellBlocks,
  startServerScript,
  startServerScriptProcess,
} from "../support/guide-walkthrough.ts";
import { envWithoutSandboxSettings } from "../support/start-process.ts";

const tsx = path.join(repoRoot, "node_modules", ".bin", "tsx");

describe("npm start (scripts/start-server.ts)", () => {
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
    expect(banner).toContain(sampleCredentials.webhookSecret);
  });

  it("runs the quick start of docs/reference-server.md as written (only BASE points at this server)", () => {
    const blocks = shellBlocks("docs/reference-server.md", "Quick start");
    expect(blocks[0]).toBe("npm ci && npm start\n");
    const result = runWalkthrough(blocks.slice(1).join("\n"), started.url);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    const lines = result.stdout.split("\n");
    expect(lines.filter((line) => line.startsWith("token check:"))).toEqual([
      "token check: 200",
      "token check: 409",
      "token check: 403",
    ]);
    expect(result.stdout).toContain('"id":"USDC-base"');
    expect(result.stdout).toMatch(
      /"securePaymentUrl":"http:\/\/127\.0\.0\.1:\d+\/pay\?token=[0-9A-HJKMNP-TV-Z]{26}"/,
    );
    expect(result.stdout).toContain("stepsRequired: 2");
    expect(result.stdout).toContain("needsApproval: true");
    expect(lines).toContain("paid");
    expect(result.stdout).toMatch(/"offsetSeconds":691200/);
  });
});

describe("start-up errors", () => {
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(tsx, [startServerScript, ...args], {
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
      "  - accounts[0].apiKeys[0]: must NOT have fewer than 16 characters, got a value of 8 characters",
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
