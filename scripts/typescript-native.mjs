// Where TypeScript 7, the native compiler, is installed: one place for every script and test.
import path from "node:path";
import { repoRoot } from "./bundle-sources.mjs";

/**
 * TypeScript 7, the native compiler, which type-checks the project and builds the library.
 * TypeScript 5.9 (package `typescript`) stays for what uses its JavaScript API, which 7 does not
 * have: openapi-typescript and the in-process compiles of the guides' snippets. Both packages
 * install a `tsc` command, so it is called by its path, never as `node_modules/.bin/tsc`.
 */
export const nativeTypeScriptCompiler = path.join(
  repoRoot,
  "node_modules",
  "typescript-native",
  "bin",
  "tsc",
);
