// The packed package's `payreq` command (dist/cli/main.js): the command line's CommonJS bundle
// beside it, compiled from V8's code cache when that fits this Node; when it does not (no cache
// yet, another Node), the cache is written anew as the command exits.
import { fileURLToPath } from "node:url";
import { loadWithCodeCache } from "./code-cache.ts";
import type { runCli as RunCli } from "./run-cli.ts";

const bundle = loadWithCodeCache(fileURLToPath(new URL("./main.cjs", import.meta.url)));
if (!bundle.cacheAccepted) process.once("exit", () => bundle.writeCache());
const { runCli } = bundle.exports as { runCli: typeof RunCli };
process.exit(await runCli(process.argv.slice(2)));
