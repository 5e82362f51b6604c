import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { repoRoot, runTool, type ToolResult } from "../../scripts/run-tool.ts";

/** The ```ts blocks of a Markdown guide (a path from the repository root), in order. */
export function guideSnippets(guidePath: string): string[] {
  return guideBlocks(guidePath, "ts");
}

/**
 * The fenced blocks of one language (`ts`, `sh`) of a Markdown guide, in order; with `section`,
 * only those under the `## section` heading, up to the next `## ` heading.
 */
export function guideBlocks(guidePath: string, language: string, section?: string): string[] {
  let guide = readFileSync(path.resolve(repoRoot, guidePath), "utf8");
  if (section !== undefined) {
    const start = guide.indexOf(`\n## ${section}\n`);
    if (start < 0) throw new Error(`${guidePath} has no section "${section}"`);
    const end = guide.indexOf("\n## ", start + 1);
    guide = guide.slice(start, end < 0 ? undefined : end);
  }
  const fence = new RegExp(`^\`\`\`${language}\\n([\\s\\S]*?)^\`\`\`$`, "gm");
  return [...guide.matchAll(fence)].map(([, code]) => code ?? "");
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
