import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import path from "node:path";
import { reachableUrlHost } from "../../server/reachable-host.ts";
import { CommandError } from "../cli-errors.ts";
import { type CliIo, printLine } from "../cli-io.ts";
import { describeListenError } from "../describe-listen-error.ts";
import { readPort } from "../option-values.ts";
import { packageRoot } from "../package-root.ts";
import { parseCommandLine } from "../parse-command-line.ts";
import { watchStopSignals } from "../stop-signal.ts";
import { checkPortFree } from "./check-port-free.ts";
import { findPrism } from "./find-prism.ts";
import { waitUntilAccepting } from "./wait-until-accepting.ts";

export interface MockCommandOptions {
  /** How the user typed the command, for usage and messages: `payreq mock` or `npm run mock --`. */
  command: string;
}

function mockUsage(command: string): string {
  return `Usage: ${command} [--port 4010] [--host 127.0.0.1] [--dynamic] [--verbose]

Serves the Prism mock of generated/openapi.json. It validates every request against the spec
and answers with the spec's named examples, or with generated data when --dynamic is given.
PORT sets the port when --port is not given. It prints where it listens once ready, then only
Prism's errors (such as why a request was refused); --verbose prints Prism's whole log: every
route at start and each request's negotiation.

Options:
  --port P       the port to listen on (default 4010)
  --host H       the address to listen on (default 127.0.0.1)
  --dynamic      answer with data generated from the schemas instead of the examples
  --verbose      print Prism's whole log
  -h, --help     show this help`;
}

const mockOptions = {
  port: { type: "string" },
  host: { type: "string" },
  dynamic: { type: "boolean" },
  verbose: { type: "boolean" },
} as const;

const bundledSpec = "generated/openapi.json";
const docsPage = "docs/index.html";

/** Runs Prism until it exits, or until SIGINT or SIGTERM stop it; resolves with the exit status. */
export async function runMock(
  args: readonly string[],
  io: CliIo,
  options: MockCommandOptions,
): Promise<number> {
  const { command } = options;
  const parsed = parseCommandLine(args, { command, options: mockOptions });
  if (parsed.help) {
    printLine(io.stdout, mockUsage(command));
    return 0;
  }
  const port = readPort(parsed.values.port ?? (io.env.PORT || "4010"), "--port (or PORT)", command, 1);
  const host = parsed.values.host ?? "127.0.0.1";
  const { dynamic, verbose } = parsed.values;
  const spec = path.join(packageRoot, bundledSpec);
  if (!existsSync(spec)) throw new CommandError(`${bundledSpec} is missing: run \`npm run build\` first.`);
  const prismScript = findPrism(path.join(packageRoot, "package.json"));
  await checkPortFree(host, port).catch((error: NodeJS.ErrnoException) => {
    const message = describeListenError(error, {
      host,
      port,
      what: "the mock",
      portInUseHint: "stop what runs there, or pass --port",
    });
    throw new CommandError(message, { cause: error });
  });

  // Prism's "error" level still reports why it refused a request; "info" adds every route and
  // about six lines per request.
  const prismArgs = [
    "mock",
    spec,
    "--host",
    host,
    "--port",
    String(port),
    "--verboseLevel",
    verbose ? "info" : "error",
    ...(dynamic ? ["--dynamic"] : []),
  ];
  const prism = spawn(process.execPath, [prismScript, ...prismArgs], {
    cwd: packageRoot,
    env: { ...io.env, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = once(prism, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  const stop = watchStopSignals();
  try {
    const logged = passPrismOutput(prism.stdout, io, { verbose: verbose === true });
    const base = `http://${reachableUrlHost(host)}:${port}`;
    // Quiet, Prism says nothing once it listens: the port tells. Verbose, its route list follows
    // the port opening, and the banner waits for the end of it.
    Promise.all([
      waitUntilAccepting(new URL(base).hostname.replace(/^\[(.*)\]$/, "$1"), port, exited),
      verbose ? logged.listening : undefined,
    ]).then(
      () =>
        printLine(
          io.stdout,
          [
            "",
            `payreq mock (Prism, ${dynamic ? "dynamic data" : "spec examples"}) is serving the Payment Request Service API`,
            `  API:   ${base}  (try: curl -H 'x-api-key: any' ${base}/v1/currencies)`,
            `  Spec:  ${spec}`,
            `  Docs:  ${path.join(packageRoot, docsPage)} (open in a browser, works offline)`,
            `  Log:   ${verbose ? "Prism's whole log" : "Prism's errors only (--verbose prints every request)"}`,
            "Stop with Ctrl+C.",
            "",
          ].join("\n"),
        ),
      // Prism exited first: its exit status and its own words (on stderr) say why.
      () => undefined,
    );
    const first = await Promise.race([exited, stop.received]);
    if (typeof first === "string") {
      prism.kill(first);
      await exited;
      return 0;
    }
    const [code, signal] = first;
    return code ?? (signal ? 1 : 0);
  } finally {
    stop.dispose();
  }
}

/**
 * Prism's start-up notice, which it prints even at the "error" level. The ellipsis is escaped: the
 * bundle must stay ASCII (bundle-sources.mjs), and esbuild keeps a regular expression's characters.
 */
const startingLine = /\[CLI\] \u2026\s+awaiting\s+Starting Prism/;

/**
 * Passes Prism's log through, whole lines at a time; quiet, without its start-up notice.
 * `listening` resolves once the log says Prism listens, which only its "info" level says.
 */
function passPrismOutput(
  output: NodeJS.ReadableStream,
  io: CliIo,
  options: { verbose: boolean },
): { listening: Promise<void> } {
  let partial = "";
  let seen = "";
  let sawListening: () => void = () => {};
  const listening = new Promise<void>((resolve) => {
    sawListening = resolve;
  });
  output.setEncoding("utf8");
  output.on("data", (chunk: string) => {
    if (options.verbose) {
      io.stdout.write(chunk);
      // Chunks may split the line.
      seen = (seen + chunk).slice(-500);
      if (seen.includes("Prism is listening")) sawListening();
      return;
    }
    const lines = (partial + chunk).split("\n");
    partial = lines.pop() ?? "";
    const kept = lines.filter((line) => !startingLine.test(line));
    if (kept.length > 0) io.stdout.write(`${kept.join("\n")}\n`);
  });
  output.on("end", () => {
    if (partial !== "" && !startingLine.test(partial)) io.stdout.write(partial);
  });
  return { listening };
}
