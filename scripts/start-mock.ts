// `npm run mock`: the Prism mock, as `payreq mock` runs it.
import { processIo } from "../src/cli/cli-io.ts";
import { runMock } from "../src/cli/mock/mock-command.ts";
import { reportCliErrors } from "../src/cli/run-cli.ts";

process.exit(
  await reportCliErrors(
    () => runMock(process.argv.slice(2), processIo, { command: "npm run mock --" }),
    processIo,
  ),
);
