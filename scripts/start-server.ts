// `npm start` and `npm run serve`: the reference server, as `payreq serve` runs it.
import { processIo } from "../src/cli/cli-io.ts";
import { reportCliErrors } from "../src/cli/run-cli.ts";
import { runServe } from "../src/cli/serve/serve-command.ts";

// No top-level await: scripts/run-bundled.mjs runs this as CommonJS.
reportCliErrors(
  () => runServe(process.argv.slice(2), processIo, { command: "npm start --" }),
  processIo,
).then((code) => process.exit(code));
