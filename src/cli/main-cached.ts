// The packed package's `payreq` command (dist/cli/main.cjs, which bin/payreq.cjs runs): the
// command line's CommonJS bundle beside it (dist/cli/run-cli.cjs), compiled from V8's code cache
// when that fits (code-cache.mjs). Itself bundled as CommonJS too: Node starts a CommonJS
// entry some 10 ms sooner than an ES module, for which it first sets up its module loader.
import { fileURLToPath } from "node:url";
import { runWithCodeCache } from "./code-cache.mjs";
import type { runCli as RunCli } from "./run-cli.ts";

const { runCli } = runWithCodeCache(fileURLToPath(new URL("./run-cli.cjs", import.meta.url))) as {
  runCli: typeof RunCli;
};
// No top-level await in CommonJS.
runCli(process.argv.slice(2)).then((code) => process.exit(code));
