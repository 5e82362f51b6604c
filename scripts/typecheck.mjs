// `npm run typecheck [-- tsc options]`: the whole project in strict mode, generated types included,
// with TypeScript 7. test/typecheck.test.ts runs the same check with the same arguments.
import { spawnSync } from "node:child_process";
import { pathToFileURL } from "node:url";
import { repoRoot } from "./bundle-sources.mjs";
import { nativeTypeScriptCompiler } from "./typescript-native.mjs";

/**
 * tsc keeps what it checked in .cache/: a later run checks again only the files that changed and
 * those that depend on them, but still reads every file and reports every error.
 */
export const typecheckArguments = [
  "--noEmit",
  "--incremental",
  "--tsBuildInfoFile",
  ".cache/typecheck/tsconfig.tsbuildinfo",
];

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = spawnSync(
    process.execPath,
    [nativeTypeScriptCompiler, ...typecheckArguments, ...process.argv.slice(2)],
    { cwd: repoRoot, stdio: "inherit" },
  );
  if (result.error) throw result.error;
  process.exit(result.status ?? 1);
}
