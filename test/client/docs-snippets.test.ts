import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/spec-document.ts";

// Every TypeScript snippet of docs/client.md must compile against the client as it is, so the
// guide cannot drift from the API.

const guide = readFileSync(path.join(repoRoot, "docs", "client.md"), "utf8");
const snippets = [...guide.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map(([, code]) => code ?? "");
const workDir = mkdtempSync(path.join(os.tmpdir(), "payreq-docs-"));

afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe("docs/client.md", () => {
  it("has TypeScript snippets that import from payreq", () => {
    expect(snippets.length).toBeGreaterThanOrEqual(7);
    for (const snippet of snippets) expect(snippet).toContain('from "payreq"');
  });

  it("compiles every snippet with the project's strict settings", () => {
    const files = snippets.map((code, index) => {
      const file = `snippet-${index + 1}.ts`;
      writeFileSync(path.join(workDir, file), code);
      return file;
    });
    writeFileSync(path.join(workDir, "package.json"), JSON.stringify({ type: "module", private: true }));
    const { compilerOptions } = JSON.parse(readFileSync(path.join(repoRoot, "tsconfig.json"), "utf8"));
    writeFileSync(
      path.join(workDir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          ...compilerOptions,
          typeRoots: [path.join(repoRoot, "node_modules", "@types")],
          paths: { payreq: [path.join(repoRoot, "src", "index.ts")] },
        },
        files,
      }),
    );
    const tsc = path.join(repoRoot, "node_modules", ".bin", "tsc");
    const result = spawnSync(tsc, ["-p", workDir, "--pretty", "false"], { encoding: "utf8" });
    expect(result.stdout + result.stderr).toBe("");
    expect(result.status).toBe(0);
  });
});
