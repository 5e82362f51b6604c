#!/usr/bin/env node
// The `payreq` command. A published package runs the compiled CLI from dist/; a development
// checkout runs the TypeScript sources through tsx, in this same process.
import { existsSync } from "node:fs";

const compiled = new URL("../dist/cli/main.js", import.meta.url);
const sources = new URL("../src/cli/main.ts", import.meta.url);

if (existsSync(compiled)) {
  await import(compiled.href);
} else if (existsSync(sources)) {
  let register;
  try {
    ({ register } = await import("tsx/esm/api"));
  } catch {
    console.error(
      "payreq: dist/cli/main.js is missing and tsx is not installed to run the sources.\n" +
        "In a checkout of payreq, run `npm ci` (installs tsx), or `npm run build:lib` to compile the CLI.",
    );
    process.exit(1);
  }
  register();
  await import(sources.href);
} else {
  console.error("payreq: the CLI is missing from this package (no dist/cli/main.js): reinstall payreq.");
  process.exit(1);
}
