// The packed package's `payreq` command (dist/cli/main.js): the command line's CommonJS bundle
// beside it, compiled from V8's code cache when that fits (scripts/code-cache.mjs).
import { fileURLToPath } from "node:url";
import { runWithCodeCache } from "../../scripts/code-cache.mjs";
import type { runCli as RunCli } from "./run-cli.ts";

const { runCli } = runWithCodeCache(fileURLToPath(new URL("./main.cjs", import.meta.url))) as {
  runCli: typeof RunCli;
};
process.exit(await runCli(process.argv.slice(2)));
