// `node scripts/run-bundled.mjs scripts/<name>.ts [arguments]`: runs a TypeScript script of this
// repository from a one-file CommonJS bundle of it and everything it imports (bundle-sources.mjs),
// rebuilt in .cache/ when a source changed. One Node process and no TypeScript loader: `npm start`
// answers well within a second, and `npm run contract` starts as fast. A CommonJS bundle has no
// top-level await: the scripts run through here end with a promise.
import { createRequire } from "node:module";
import path from "node:path";
import { freshBundle, repoRoot } from "./bundle-sources.mjs";

const [entry] = process.argv.splice(2, 1); // the script reads its own arguments from process.argv[2] on
if (entry === undefined) {
  console.error("Usage: node scripts/run-bundled.mjs scripts/<name>.ts [arguments]");
  process.exit(2);
}
const name = path.basename(entry, ".ts");
const bundle = await freshBundle(
  path.resolve(repoRoot, entry),
  path.join(repoRoot, ".cache", name, `${name}.cjs`),
  {
    format: "cjs",
  },
);
createRequire(import.meta.url)(bundle);
