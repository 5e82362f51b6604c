#!/usr/bin/env node
// The `payreq` command. A development checkout runs the TypeScript sources through tsx, in this
// same process, so that a leftover dist/ never shadows them; a published package (no src/) runs
// the compiled CLI from dist/.
import { existsSync } from "node:fs";

const compiled = new URL("../dist/cli/main.js", import.meta.url);
const sources = new URL("../src/cli/main.ts", import.meta.url);

async function loadTsx() {
  try {
    return await import("tsx/esm/api");
  } catch {
    return undefined;
  }
}

const tsx = existsSync(sources) ? await loadTsx() : undefined;
if (tsx) {
  tsx.register();
  await import(sources.href);
} else if (existsSync(compiled)) {
  await import(compiled.href);
} else if (existsSync(sources)) {
  console.error(
    "payreq: tsx is not installed to run the sources and dist/cli/main.js is missing.\n" +
      "In a checkout of payreq, run `npm ci` (installs tsx), or `npm run build:lib` to compile the CLI.",
  );
  process.exit(1);
} else {
  console.error("payreq: the CLI is missing from this package (no dist/cli/main.js): reinstall payreq.");
  process.exit(1);
}
