// `npm run mock`: the Prism mock, as `payreq mock` runs it.
import { processIo } from "../src/cli/cli-io.ts";
import { runMock } from "../src/cli/mock/mock-command.ts";
import { reportCliErrors } from "../src/cli/run-cli.ts";

// No top-level await: scripts/run-bundled.mjs runs this as CommonJS.
reportCliErrors(
  () => runMock(process.argv.slice(2), processIo, { command: "npm run mock --" }),
  processIo,
).then((code) => process.exit(code));
