// `npm run proxy`: the validating proxy, as `payreq proxy` runs it.
import { processIo } from "../src/cli/cli-io.ts";
import { runProxy } from "../src/cli/proxy/proxy-command.ts";
import { reportCliErrors } from "../src/cli/run-cli.ts";

// No top-level await: scripts/run-bundled.mjs runs this as CommonJS.
reportCliErrors(
  () => runProxy(process.argv.slice(2), processIo, { command: "npm run proxy --" }),
  processIo,
).then((code) => process.exit(code));
