#!/usr/bin/env node
// The `payreq` command. A development checkout runs a bundle of the TypeScript sources, rebuilt
// whenever a source changed (scripts/bundle-sources.mjs), so that neither a leftover dist/ nor a
// stale bundle shadows them; without esbuild it runs the sources through tsx. A published
// package (no src/) runs the compiled CLI from dist/.
import { existsSync } from "node:fs";

const compiled = new URL("../dist/cli/main.js", import.meta.url);
const sources = new URL("../src/cli/main.ts", import.meta.url);

async function loadOptional(specifier) {
  try {
    return await import(specifier);
  } catch {
    return undefined;
  }
}

/** The URL of a fresh bundle of the sources; undefined when esbuild, which builds it, is not installed. */
async function bundledSources() {
  const { fileURLToPath, pathToFileURL } = await import("node:url");
  const { freshBundle } = await import("../scripts/bundle-sources.mjs");
  try {
    const bundle = await freshBundle(
      fileURLToPath(sources),
      fileURLToPath(new URL("../.cache/cli/main.mjs", import.meta.url)),
    );
    return pathToFileURL(bundle).href;
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
  await import(bundle);
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
