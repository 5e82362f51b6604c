// `npm run build:lib`, which the `prepare` script runs: compiles the library to dist/ with tsc and
// bundles the `payreq` command and `payreq/testing` (bundle-cli.mjs), unless dist/ was built from these very inputs.
// npm runs `prepare` twice when it installs payreq from a git URL (once the clone's dependencies
// are in, and again when it packs the clone); the second build would only repeat the first.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { hashBuildInputs } from "./build-inputs.mjs";
import { repoRoot } from "./bundle-sources.mjs";
import { nativeTypeScriptCompiler } from "./typescript-native.mjs";

const recordFile = path.join(repoRoot, ".cache", "build-lib", "inputs.sha256");
const outputs = [
  "dist/index.js",
  "dist/contract/index.js",
  "dist/cli/main.cjs",
  "dist/testing/index.js",
  "dist/testing/index.d.ts",
];
/** The declarations of `payreq/testing`: its public types name only the spec's, not the server's. */
const testingDeclarations = ["index.d.ts", "sandbox-types.d.ts", "start-sandbox.d.ts"];

/** Runs a command from the repository root, its output shown; rejects when it fails. */
async function run(command, args) {
  const child = spawn(command, args, { cwd: repoRoot, stdio: "inherit" });
  const [code] = await once(child, "exit");
  if (code !== 0) throw new Error(`${[command, ...args].join(" ")} exited with ${code}`);
}

const inputs = hashBuildInputs(repoRoot);
const built =
  outputs.every((file) => existsSync(path.join(repoRoot, file))) &&
  existsSync(recordFile) &&
  readFileSync(recordFile, "utf8") === inputs;
if (built) {
  console.log("dist/ is up to date: it was built from the same sources, lockfile and Node.js version.");
} else {
  rmSync(recordFile, { force: true });
  rmSync(path.join(repoRoot, "dist"), { recursive: true, force: true });
  // payreq/testing runs from a bundle (the server is not in tsc's library); its declarations come
  // from a declarations-only compile of its entry, of which only its own files are kept.
  const typesDir = path.join(repoRoot, ".cache", "testing-types");
  rmSync(typesDir, { recursive: true, force: true });
  // The three steps write to different places: they run at once.
  await Promise.all([
    run(process.execPath, [nativeTypeScriptCompiler, "-p", "tsconfig.build.json"]),
    run(process.execPath, [path.join(repoRoot, "scripts", "bundle-cli.mjs")]),
    run(process.execPath, [nativeTypeScriptCompiler, "-p", "tsconfig.testing-types.json"]),
  ]);
  for (const file of testingDeclarations) {
    copyFileSync(path.join(typesDir, "testing", file), path.join(repoRoot, "dist", "testing", file));
  }
  mkdirSync(path.dirname(recordFile), { recursive: true });
  writeFileSync(recordFile, inputs);
}
