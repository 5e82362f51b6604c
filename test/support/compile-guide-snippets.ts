import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { repoRoot, runTool, type ToolResult } from "../../scripts/run-tool.ts";

/** The ```ts blocks of a Markdown guide (a path from the repository root), in order. */
export function guideSnippets(guidePath: string): string[] {
  const guide = readFileSync(path.resolve(repoRoot, guidePath), "utf8");
  return [...guide.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map(([, code]) => code ?? "");
}

/**
 * Compiles every TypeScript snippet of a guide in a temporary project with the repository's
 * compiler options, `payreq` resolving to src/index.ts and `extraPaths` added to `paths`, so
 * that the guide cannot drift from the API.
 */
export function compileGuideSnippets(
  guidePath: string,
  extraPaths: Record<string, string[]> = {},
): ToolResult {
  const workDir = mkdtempSync(path.join(os.tmpdir(), "payreq-guide-"));
  try {
    const files = guideSnippets(guidePath).map((code, index) => {
      const file = `snippet-${index + 1}.ts`;
      // `export {}` makes each snippet a module, so top-level await and names stay local.
      writeFileSync(path.join(workDir, file), `${code}\nexport {};\n`);
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
          paths: { payreq: [path.join(repoRoot, "src", "index.ts")], ...extraPaths },
        },
        files,
      }),
    );
    return runTool("tsc", ["-p", workDir, "--pretty", "false"]);
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}
