// The `payreq` executable: runs the command line and exits with its status.
import { runCli } from "./run-cli.ts";

process.exit(await runCli(process.argv.slice(2)));
