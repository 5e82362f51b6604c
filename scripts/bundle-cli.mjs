// Part of `npm run build:lib`: the packed `payreq` command beside tsc's library in dist/, the
// command line and its dependencies in one CommonJS bundle (dist/cli/main.cjs): Node starts a
// CommonJS entry without setting up its ES module loader.
import path from "node:path";
import { bundleForNode, repoRoot } from "./bundle-sources.mjs";

await bundleForNode(
  path.join(repoRoot, "src", "cli", "main.ts"),
  path.join(repoRoot, "dist", "cli", "main.cjs"),
  {
    format: "cjs",
  },
);

// payreq/testing: the reference server in an integrator's test process, as an ES module (the
// test runners import it), its dependencies bundled as the command's are.
await bundleForNode(
  path.join(repoRoot, "src", "testing", "index.ts"),
  path.join(repoRoot, "dist", "testing", "index.js"),
);
