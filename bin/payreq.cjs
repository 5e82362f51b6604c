#!/usr/bin/env node
// The `payreq` command. A development checkout runs a CommonJS bundle of the TypeScript sources,
// rebuilt whenever a source changed (scripts/bundle-sources.mjs), so that neither a leftover dist/
// nor a stale bundle shadows them, as the packed command runs its own; without esbuild it runs
// the sources through tsx. A published package (no src/) runs the compiled CLI from dist/. CommonJS, as
// dist/cli/main.cjs is: an installed command starts without Node's ES module loader.
"use strict";
const { existsSync } = require("node:fs");
const path = require("node:path");
const { pathToFileURL } = require("node:url");

const root = path.join(__dirname, "..");
const compiled = path.join(root, "dist", "cli", "main.cjs");
const sources = path.join(root, "src", "cli", "main.ts");
const runCliSource = path.join(root, "src", "cli", "run-cli.ts");

async function loadOptional(specifier) {
  try {
    return await import(specifier);
  } catch {
    return undefined;
  }
}

/** The path of a fresh bundle of the sources; undefined when esbuild, which builds it, is not installed. */
async function bundledSources() {
  const { freshBundle } = await import("../scripts/bundle-sources.mjs");
  try {
    return await freshBundle(runCliSource, path.join(root, ".cache", "cli", "run-cli.cjs"), {
      format: "cjs",
    });
  } catch (error) {
    if (error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("'esbuild'"))
      return undefined;
    throw error;
  }
}

function missingCli(message) {
  console.error(message);
  process.exit(1);
}

/** A checkout: its sources, bundled or through tsx, else the compiled CLI if one was built. */
async function runCheckout() {
  const bundle = await bundledSources();
  if (bundle) {
    const { runCli } = require(bundle);
    process.exit(await runCli(process.argv.slice(2)));
  }
  const tsx = await loadOptional("tsx/esm/api");
  if (tsx) {
    tsx.register();
    await import(pathToFileURL(sources).href);
  } else if (existsSync(compiled)) {
    require(compiled);
  } else {
    missingCli(
      "payreq: neither esbuild nor tsx is installed to run the sources, and dist/cli/main.cjs is missing.\n" +
        "In a checkout of payreq, run `npm ci`, or `npm run build:lib` to compile the CLI.",
    );
  }
}

if (existsSync(sources)) {
  runCheckout().catch((error) => {
    console.error(error);
    process.exit(1);
  });
} else if (existsSync(compiled)) {
  require(compiled);
} else {
  missingCli("payreq: the CLI is missing from this package (no dist/cli/main.cjs): reinstall payreq.");
}
