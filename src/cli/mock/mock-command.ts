import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync } from "node:fs";
import path from "node:path";
import { CommandError } from "../cli-errors.ts";
import { type CliIo, printLine } from "../cli-io.ts";
import { readPort } from "../option-values.ts";
import { packageRoot } from "../package-root.ts";
import { parseCommandLine } from "../parse-command-line.ts";
import { watchStopSignals } from "../stop-signal.ts";
import { findPrism } from "./find-prism.ts";

export interface MockCommandOptions {
  /** How the user typed the command, for usage and messages: `payreq mock` or `npm run mock --`. */
  command: string;
}

function mockUsage(command: string): string {
  return `Usage: ${command} [--port 4010] [--host 127.0.0.1] [--dynamic]

Serves the Prism mock of generated/openapi.json. It validates every request against the spec
and answers with the spec's named examples, or with generated data when --dynamic is given.
PORT sets the port when --port is not given.

Options:
  --port P       the port to listen on (default 4010)
  --host H       the address to listen on (default 127.0.0.1)
  --dynamic      answer with data generated from the schemas instead of the examples
  -h, --help     show this help`;
}

const mockOptions = {
  port: { type: "string" },
  host: { type: "string" },
  dynamic: { type: "boolean" },
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
  const { dynamic } = parsed.values;
  const spec = path.join(packageRoot, bundledSpec);
  if (!existsSync(spec)) throw new CommandError(`${bundledSpec} is missing: run \`npm run build\` first.`);
  const prismScript = findPrism(path.join(packageRoot, "package.json"));

  const prismArgs = ["mock", spec, "--host", host, "--port", String(port), ...(dynamic ? ["--dynamic"] : [])];
  const prism = spawn(process.execPath, [prismScript, ...prismArgs], {
    cwd: packageRoot,
    env: { ...io.env, NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = once(prism, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  const stop = watchStopSignals();
  try {
    announceWhenListening(prism.stdout, io, () => {
      const base = `http://${host}:${port}`;
      return [
        "",
        `payreq mock (Prism, ${dynamic ? "dynamic data" : "spec examples"}) is serving the Payment Request Service API`,
        `  API:   ${base}  (try: curl -H 'x-api-key: any' ${base}/v1/currencies)`,
        `  Spec:  ${spec}`,
        `  Docs:  ${path.join(packageRoot, docsPage)} (open in a browser, works offline)`,
        "Stop with Ctrl+C.",
        "",
      ].join("\n");
    });
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

/** Passes Prism's output through and adds the banner once Prism says it listens. */
function announceWhenListening(output: NodeJS.ReadableStream, io: CliIo, banner: () => string): void {
  let announced = false;
  // Prism's output arrives in chunks that may split its "listening" line.
  let pending = "";
  output.setEncoding("utf8");
  output.on("data", (chunk: string) => {
    io.stdout.write(chunk);
    if (announced) return;
    pending = (pending + chunk).slice(-500);
    if (pending.includes("Prism is listening")) {
      announced = true;
      printLine(io.stdout, banner());
    }
  });
}
