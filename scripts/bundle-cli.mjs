// Part of `npm run build:lib`: the packed `payreq` command beside tsc's library in dist/. The
// command line and its dependencies are one CommonJS bundle (dist/cli/run-cli.cjs), which
// dist/cli/main.cjs compiles from V8's code cache beside it (src/cli/code-cache.mjs). One start of
// `payreq serve` here writes that cache, with the code the server's start-up compiles.
import { spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { bundleForNode, repoRoot } from "./bundle-sources.mjs";

const folder = path.join(repoRoot, "dist", "cli");
await bundleForNode(path.join(repoRoot, "src", "cli", "run-cli.ts"), path.join(folder, "run-cli.cjs"), {
  format: "cjs",
});
await bundleForNode(path.join(repoRoot, "src", "cli", "main-cached.ts"), path.join(folder, "main.cjs"), {
  format: "cjs",
});

const serve = spawn(process.execPath, [path.join(folder, "main.cjs"), "serve", "--port", "0"], {
  cwd: repoRoot,
  stdio: ["ignore", "pipe", "inherit"],
  env: { ...process.env, PAYREQ_CONFIG: "", PORT: "" },
});
let printed = "";
serve.stdout.setEncoding("utf8");
serve.stdout.on("data", (chunk) => {
  printed += chunk;
  // The banner comes once the server answers: the cache is written then (startedEvent).
  if (printed.includes("Stop with Ctrl+C.")) serve.kill("SIGTERM");
});
const [code] = await once(serve, "exit");
if (code !== 0) throw new Error(`payreq serve exited with ${code} while writing the code cache:\n${printed}`);
