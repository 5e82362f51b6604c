import { CommandError, UsageError } from "./cli-errors.ts";
import { type CliIo, printLine, processIo } from "./cli-io.ts";
import { readPackageJson } from "./package-root.ts";

const cliUsage = `Usage: payreq <command> [options]

The Payment Request Service toolkit on the command line: a local sandbox of the service, a mock
of its API, a proxy that checks calls against the spec, and webhooks delivered to your machine.

Commands:
  serve               run the reference server, a stateful sandbox of the service
  mock                run the Prism mock of the API (answers with the spec's examples)
  proxy               a validating proxy: pass calls on to a deployment, check each against the spec
  webhooks listen     receive webhooks locally: verify, print and forward them to your endpoint
  webhooks trigger    make the reference server send a real signed webhook

Options:
  -h, --help          show this help; after a command, that command's help
  -v, --version       print payreq's version

Examples:
  payreq serve
  payreq proxy --upstream http://127.0.0.1:3000 --junit proxy-junit.xml
  payreq webhooks listen --forward-to http://localhost:8080/webhooks/payreq
  payreq webhooks trigger payment.confirmed

Exit status: 0 on success, 1 when a command fails, 2 for a bad command line.`;

/** Runs one command line and resolves with the exit status; commands are loaded only when run. */
export function runCli(args: readonly string[], io: CliIo = processIo): Promise<number> {
  return reportCliErrors(() => dispatch(args, io), io);
}

/**
 * Runs a command and turns its expected failures into a message on stderr and an exit status:
 * 2 for a bad command line (with a pointer to --help), 1 for a command that failed.
 */
export async function reportCliErrors(run: () => Promise<number>, io: CliIo): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof UsageError) {
      printLine(io.stderr, error.message);
      printLine(io.stderr, `Run '${error.command} --help' for the options.`);
      return error.exitCode;
    }
    if (error instanceof CommandError) {
      printLine(io.stderr, error.message);
      return error.exitCode;
    }
    throw error;
  }
}

async function dispatch(args: readonly string[], io: CliIo): Promise<number> {
  const [command, ...rest] = args;
  switch (command) {
    case "serve":
      return (await import("./serve/serve-command.ts")).runServe(rest, io, { command: "payreq serve" });
    case "mock":
      return (await import("./mock/mock-command.ts")).runMock(rest, io, { command: "payreq mock" });
    case "proxy":
      return (await import("./proxy/proxy-command.ts")).runProxy(rest, io, { command: "payreq proxy" });
    case "webhooks":
      return (await import("./webhooks/webhooks-command.ts")).runWebhooks(rest, io);
    case undefined: // `npx payreq` alone: what it can do, not an error
    case "help":
    case "--help":
    case "-h":
      printLine(io.stdout, cliUsage);
      return 0;
    case "--version":
    case "-v":
      printLine(io.stdout, readPackageJson().version);
      return 0;
    default:
      throw new UsageError(
        command.startsWith("-")
          ? `unknown option ${command}: give a command first (serve, mock, proxy or webhooks)`
          : `unknown command "${command}": give serve, mock, proxy or webhooks`,
        "payreq",
      );
  }
}
