import { mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { repoRoot, type ToolResult } from "../../scripts/run-tool.ts";

// Loaded when a test compiles snippets, not by every test that reads a guide.
const require = createRequire(import.meta.url);

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

/** What one compiler run of the tests reads outside its own folder: declaration files, sources, libs. */
const sharedSourceFiles = new Map<string, import("typescript").SourceFile>();

/**
 * A compiler host that parses each file outside `ownDir` once per test worker and hands the same
 * parse to every later compile, as TypeScript's language service does; a file whose size or
 * modification time changed is parsed again.
 */
function hostSharingParses(
  ts: typeof import("typescript"),
  options: import("typescript").CompilerOptions,
  ownDir: string,
): import("typescript").CompilerHost {
  const host = ts.createCompilerHost(options);
  const parse = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile) => {
    if (fileName.startsWith(ownDir) || shouldCreateNewSourceFile) {
      return parse(fileName, languageVersionOrOptions, onError, shouldCreateNewSourceFile);
    }
    const stats = statSync(fileName, { throwIfNoEntry: false });
    const key = JSON.stringify([fileName, stats?.size, stats?.mtimeMs, languageVersionOrOptions]);
    let sourceFile = sharedSourceFiles.get(key);
    if (sourceFile === undefined) {
      sourceFile = parse(fileName, languageVersionOrOptions, onError);
      if (sourceFile !== undefined) sharedSourceFiles.set(key, sourceFile);
    }
    return sourceFile;
  };
  return host;
}

/**
 * Compiles every TypeScript snippet of a guide in a temporary project with the repository's
 * compiler options, `payreq` resolving to src/index.ts and `extraPaths` added to `paths`, so
 * that the guide cannot drift from the API. The compiler runs in the test's own process and
 * reports what `tsc --pretty false` would report for the snippets: errors in the sources they
 * import are test/typecheck.test.ts's to report.
 */
export function compileGuideSnippets(
  guidePath: string,
  extraPaths: Record<string, string[]> = {},
): ToolResult {
  const ts = require("typescript") as typeof import("typescript");
  const workDir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "payreq-guide-")));
  try {
    const files = guideSnippets(guidePath).map((code, index) => {
      const file = path.join(workDir, `snippet-${index + 1}.ts`);
      // `export {}` makes each snippet a module, so top-level await and names stay local.
      writeFileSync(file, `${code}\nexport {};\n`);
      return file;
    });
    writeFileSync(path.join(workDir, "package.json"), JSON.stringify({ type: "module", private: true }));
    const { compilerOptions } = JSON.parse(readFileSync(path.join(repoRoot, "tsconfig.json"), "utf8"));
    const config = ts.parseJsonConfigFileContent(
      {
        compilerOptions: {
          ...compilerOptions,
          typeRoots: [path.join(repoRoot, "node_modules", "@types")],
          paths: { payreq: [path.join(repoRoot, "src", "index.ts")], ...extraPaths },
        },
        files,
      },
      ts.sys,
      workDir,
    );
    const program = ts.createProgram({
      rootNames: config.fileNames,
      options: config.options,
      host: hostSharingParses(ts, config.options, workDir),
    });
    const diagnostics = [
      ...config.errors,
      ...program.getOptionsDiagnostics(),
      ...program.getGlobalDiagnostics(),
      ...program
        .getSourceFiles()
        .filter((sourceFile) => sourceFile.fileName.startsWith(workDir))
        .flatMap((sourceFile) => [
          ...program.getSyntacticDiagnostics(sourceFile),
          ...program.getSemanticDiagnostics(sourceFile),
        ]),
    ];
    const stdout = ts.formatDiagnostics(diagnostics, {
      getCanonicalFileName: (fileName) => fileName,
      getCurrentDirectory: () => workDir,
      getNewLine: () => "\n",
    });
    return { status: diagnostics.length === 0 ? 0 : 2, stdout, stderr: "" };
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
}
