import { UsageError } from "../cli-errors.ts";
import { type CliIo, printLine } from "../cli-io.ts";

const command = "payreq webhooks";

const webhooksUsage = `Usage: ${command} <listen|trigger> [options]

Webhooks on your machine, with the reference server (payreq serve).

Commands:
  listen     receive deliveries locally: verify, print and forward them to your endpoint
  trigger    make the reference server send a real signed payment.confirmed, payment.partial
             or payment.failed

Run '${command} <command> --help' for a command's options.

Examples:
  payreq webhooks listen --forward-to http://localhost:8080/webhooks/payreq
  payreq webhooks trigger payment.confirmed`;

/** `payreq webhooks <subcommand>`; each subcommand is loaded only when run. */
export async function runWebhooks(args: readonly string[], io: CliIo): Promise<number> {
  const [subcommand, ...rest] = args;
  switch (subcommand) {
    case "listen":
      return (await import("./listen-command.ts")).runWebhooksListen(rest, io);
    case "trigger":
      return (await import("./trigger-command.ts")).runWebhooksTrigger(rest, io);
    case "help":
    case "--help":
    case "-h":
      printLine(io.stdout, webhooksUsage);
      return 0;
    case undefined:
      throw new UsageError("give a webhooks command: listen or trigger", command);
    default:
      throw new UsageError(
        subcommand.startsWith("-")
          ? `unknown option ${subcommand}: give a webhooks command first (listen or trigger)`
          : `unknown webhooks command "${subcommand}": give listen or trigger`,
        command,
      );
  }
}
