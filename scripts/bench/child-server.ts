import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { setTimeout as delay } from "node:timers/promises";
import { repoRoot } from "../run-tool.ts";

/** A server the benchmark started in its own process group, so that stopping it stops all it started. */
export interface ChildServer {
  baseUrl: string;
  /** Milliseconds from spawning the command to its first answered request. */
  startedInMs: number;
  stop(): Promise<void>;
}

export async function findFreePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, "close");
  return port;
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return;
  const exited = once(child, "exit");
  try {
    process.kill(-child.pid, "SIGTERM");
  } catch {
    return;
  }
  const killer = setTimeout(() => {
    try {
      process.kill(-(child.pid as number), "SIGKILL");
    } catch {
      // Already gone.
    }
  }, 5_000);
  await exited;
  clearTimeout(killer);
}

/**
 * Spawns `command` from the repository root and polls `probe` (a path with its headers) until it
 * answers 2xx: the time that takes is the start-up time the benchmark reports.
 */
export async function startChildServer(
  command: string,
  args: readonly string[],
  port: number,
  probe: { path: string; headers?: Record<string, string> },
): Promise<ChildServer> {
  const baseUrl = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: repoRoot,
    detached: true,
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, NO_COLOR: "1", PAYREQ_CONFIG: "", PORT: "" },
  });
  let errors = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    errors = (errors + chunk.toString("utf8")).slice(-2_000);
  });
  const deadline = started + 60_000;
  while (performance.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${command} ${args.join(" ")} exited early:\n${errors}`);
    try {
      // The probe's connection closes: a first request timed next opens its own, as a new client's does.
      const answer = await fetch(baseUrl + probe.path, {
        headers: { ...probe.headers, connection: "close" },
      });
      await answer.arrayBuffer();
      if (answer.ok) {
        return { baseUrl, startedInMs: performance.now() - started, stop: () => stopGroup(child) };
      }
    } catch {
      // Not listening yet.
    }
    await delay(5);
  }
  await stopGroup(child);
  throw new Error(`${command} ${args.join(" ")} did not answer within 60 s:\n${errors}`);
}
