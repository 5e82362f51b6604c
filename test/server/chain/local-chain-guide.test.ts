import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { repoRoot } from "../../../scripts/run-tool.ts";
import { describeWithAnvil } from "../../support/anvil.ts";
import { guideSnippets } from "../../support/compile-guide-snippets.ts";
import { startServerScriptProcess } from "../../support/guide-walkthrough.ts";
import type { RunningProcess } from "../../support/start-process.ts";

// docs/local-chain.md as a reader runs it: `npm start -- --chain`, then the guide's viem script.

const guide = "docs/local-chain.md";

describeWithAnvil("docs/local-chain.md against npm start -- --chain", () => {
  let server: RunningProcess | undefined;
  let banner = "";
  let url = "";
  beforeAll(async () => {
    ({ server, banner, url } = await startServerScriptProcess(["--chain", "--port", "0"]));
  }, 120_000);
  afterAll(async () => {
    await server?.kill();
  });

  it("prints the chain in the banner, and the guide's viem script pays a request that the server then sees paid", () => {
    const chainLine = banner.split("\n").find((line) => line.trimStart().startsWith("Chain:"));
    expect(chainLine).toMatch(
      /^ {2}Chain: {4}local sepolia, chain id 11155111, RPC http:\/\/127\.0\.0\.1:\d+ \(anvil, stopped with the server\)$/,
    );
    expect(banner).toContain("    0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266  key 0xac09");
    const rpcUrl = /RPC (http:\/\/\S+)/.exec(chainLine ?? "")?.[1] as string;

    const snippets = guideSnippets(guide);
    expect(snippets).toHaveLength(1);
    const [script] = snippets;
    mkdirSync(path.join(repoRoot, ".cache"), { recursive: true });
    // Inside the repository, so that the script finds viem as a reader's project would.
    const folder = mkdtempSync(path.join(repoRoot, ".cache", "local-chain-guide-"));
    try {
      const file = path.join(folder, "pay.mts");
      writeFileSync(file, script as string);
      const run = spawnSync(path.join(repoRoot, "node_modules", ".bin", "tsx"), [file], {
        cwd: folder,
        encoding: "utf8",
        timeout: 60_000,
        env: { ...process.env, PAYREQ_URL: url, RPC_URL: rpcUrl },
      });
      expect(run.stderr).toBe("");
      expect(run.stdout).toBe("paid by the transaction sent\n");
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
