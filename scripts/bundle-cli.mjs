// Part of `npm run build:lib`: replaces tsc's dist/cli/main.js with one bundle of the command line
// and its dependencies, so that the packed `payreq serve` starts from one file.
import path from "node:path";
import { bundleForNode, repoRoot } from "./bundle-sources.mjs";

await bundleForNode(
  path.join(repoRoot, "src", "cli", "main.ts"),
  path.join(repoRoot, "dist", "cli", "main.js"),
);
