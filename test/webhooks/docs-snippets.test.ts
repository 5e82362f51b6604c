import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { repoRoot } from "../support/spec-document.ts";

// Every TypeScript snippet of docs/webhooks.md must compile against the library as it is, so the
// guide cannot drift from the API.

const guide = readFileSync(path.join(repoRoot, "docs", "webhooks.md"), "utf8");
const snippets = [...guide.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map(([, code]) => code ?? "");
const workDir = mkdtempSync(path.join(os.tmpdir(), "payreq-webhook-docs-"));

afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe("docs/webhooks.md", () => {
  it("has TypeScript snippets that import from payreq", () => {
    expect(snippets.length).toBe(7);
    for (const snippet of snippets) expect(snippet).toContain('from "payreq"');
  });

  it("states the known-answer vector the tests check", () => {
    expect(guide).toContain(
      "the secret `It's a Secret to Everybody`\nand the body `Hello, World!` sign to\n`757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17`",
    );
  });

  it("compiles every snippet with the project's strict settings", () => {
    const files = snippets.map((code, index) => {
      const file = `snippet-${index + 1}.ts`;
      // `export {}` makes each snippet a module, so top-level await and names stay local.
      writeFileSync(path.join(workDir, file), `${code}\nexport {};\n`);
      return file;
    });
    writeFileSync(path.join(workDir, "package.json"), JSON.stringify({ type: "module", private: true }));
    const { compilerOptions } = JSON.parse(readFileSync(path.join(repoRoot, "tsconfig.json"), "utf8"));
    const typesDir = path.join(repoRoot, "node_modules", "@types");
    writeFileSync(
      path.join(workDir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          ...compilerOptions,
          typeRoots: [typesDir],
          paths: {
            payreq: [path.join(repoRoot, "src", "index.ts")],
            express: [path.join(typesDir, "express", "index.d.ts")],
          },
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
