#!/usr/bin/env node
// The `payreq` command. A development checkout runs a CommonJS bundle of the TypeScript sources,
// rebuilt whenever a source changed (scripts/bundle-sources.mjs), so that neither a leftover dist/
// nor a stale bundle shadows them, and compiled from V8's code cache beside it
// (scripts/code-cache.mjs), as the packed command is; without esbuild it runs the sources through
// tsx. A published package (no src/) runs the compiled CLI from dist/.
import { existsSync } from "node:fs";

const compiled = new URL("../dist/cli/main.js", import.meta.url);
const sources = new URL("../src/cli/main.ts", import.meta.url);
const runCliSource = new URL("../src/cli/run-cli.ts", import.meta.url);

async function loadOptional(specifier) {
  try {
    return await import(specifier);
  } catch {
    return undefined;
  }
}

/** The path of a fresh bundle of the sources; undefined when esbuild, which builds it, is not installed. */
async function bundledSources() {
  const { fileURLToPath } = await import("node:url");
  const { freshBundle } = await import("../scripts/bundle-sources.mjs");
  try {
    return await freshBundle(
      fileURLToPath(runCliSource),
      fileURLToPath(new URL("../.cache/cli/run-cli.cjs", import.meta.url)),
      { format: "cjs" },
    );
  } catch (error) {
    if (error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("'esbuild'"))
      return undefined;
    throw error;
  }
}

const inCheckout = existsSync(sources);
const bundle = inCheckout ? await bundledSources() : undefined;
const tsx = inCheckout && !bundle ? await loadOptional("tsx/esm/api") : undefined;
if (bundle) {
  const { runWithCodeCache } = await import("../scripts/code-cache.mjs");
  const { runCli } = runWithCodeCache(bundle);
  process.exit(await runCli(process.argv.slice(2)));
} else if (tsx) {
  tsx.register();
  await import(sources.href);
} else if (existsSync(compiled)) {
  await import(compiled.href);
} else if (inCheckout) {
  console.error(
    "payreq: neither esbuild nor tsx is installed to run the sources, and dist/cli/main.js is missing.\n" +
      "In a checkout of payreq, run `npm ci`, or `npm run build:lib` to compile the CLI.",
  );
  process.exit(1);
} else {
  console.error("payreq: the CLI is missing from this package (no dist/cli/main.js): reinstall payreq.");
  process.exit(1);
}
