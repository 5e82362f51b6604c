import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { closeSync, openSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import path from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { repoRoot } from "../../scripts/run-tool.ts";

export interface RunningPrism {
  baseUrl: string;
  port: number;
  /** The process (and process group) ID of the prism launcher. */
  pid: number;
  /** Stops Prism and every process it started; safe to call twice. */
  stop(): Promise<void>;
}

export interface PrismOptions {
  /** Answer with data generated from the schemas instead of the named examples. */
  dynamic?: boolean;
  /** The spec to serve; generated/openapi.json by default. */
  specPath?: string;
  startupTimeoutMs?: number;
  /** A file to append Prism's output to, instead of pipes to this process. */
  logFile?: string;
}

const host = "127.0.0.1";

/** Asks the OS for a free port on 127.0.0.1 by listening on port 0, then releases it. */
export async function findFreePort(): Promise<number> {
  const server = createServer();
  server.listen(0, host);
  await once(server, "listening");
  const address = server.address();
  server.close();
  await once(server, "close");
  if (address === null || typeof address === "string") throw new Error("the OS gave no port");
  return address.port;
}

async function stopProcessGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = once(child, "exit");
  const signalGroup = (signal: NodeJS.Signals) => {
    try {
      process.kill(-(child.pid as number), signal);
    } catch {
      // The group is already gone.
    }
  };
  signalGroup("SIGTERM");
  const stopped = await Promise.race([exited.then(() => true), delay(5_000).then(() => false)]);
  if (!stopped) {
    signalGroup("SIGKILL");
    await exited;
  }
}

/** Polls until Prism answers any HTTP request, or fails when it exits or the time is up. */
async function waitUntilAnswering(
  child: ChildProcess,
  baseUrl: string,
  timeoutMs: number,
  output: () => string,
) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`Prism exited (${child.exitCode ?? child.signalCode}) before answering:\n${output()}`);
    }
    try {
      await fetch(`${baseUrl}/`, { signal: AbortSignal.timeout(1_000) });
      return;
    } catch {
      await delay(100);
    }
  }
  throw new Error(`Prism did not answer at ${baseUrl} within ${timeoutMs} ms:\n${output()}`);
}

async function startOnce(port: number, options: PrismOptions): Promise<RunningPrism> {
  const spec = options.specPath ?? path.join(repoRoot, "generated", "openapi.json");
  const args = ["mock", spec, "--host", host, "--port", String(port), "-v", "error"];
  if (options.dynamic) args.push("--dynamic");
  const { logFile } = options;
  const logFd = logFile === undefined ? undefined : openSync(logFile, "a");
  // Its own process group, so that stopping it also stops whatever the prism launcher started.
  const child = spawn(path.join(repoRoot, "node_modules", ".bin", "prism"), args, {
    cwd: repoRoot,
    detached: true,
    stdio: ["ignore", logFd ?? "pipe", logFd ?? "pipe"],
    env: { ...process.env, NO_COLOR: "1" },
  });
  if (logFd !== undefined) closeSync(logFd);
  let output = "";
  const collect = (chunk: Buffer) => {
    output = (output + chunk.toString("utf8")).slice(-4_000);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const printed = () => (logFile === undefined ? output : readFileSync(logFile, "utf8").slice(-4_000));
  const baseUrl = `http://${host}:${port}`;
  try {
    await waitUntilAnswering(child, baseUrl, options.startupTimeoutMs ?? 30_000, printed);
  } catch (error) {
    await stopProcessGroup(child);
    throw error;
  }
  child.unref();
  return { baseUrl, port, pid: child.pid as number, stop: () => stopProcessGroup(child) };
}

/**
 * Starts the Prism mock on a free port of 127.0.0.1 and resolves once it answers HTTP. Retries on
 * another port if the chosen one was taken in the meantime.
 */
export async function startPrism(options: PrismOptions = {}): Promise<RunningPrism> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      return await startOnce(await findFreePort(), options);
    } catch (error) {
      lastError = error;
      if (!String(error).includes("EADDRINUSE")) break;
    }
  }
  throw lastError;
}
