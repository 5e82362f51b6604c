// The `payreq` executable: runs the command line and exits with its status. Bundled as CommonJS
// (dist/cli/main.cjs), which has no top-level await.
import { runCli } from "./run-cli.ts";

runCli(process.argv.slice(2)).then((code) => process.exit(code));
