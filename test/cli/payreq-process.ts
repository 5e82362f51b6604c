import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import path from "node:path";
import { type FinishedRun, runToEnd } from "../support/run-to-end.ts";
import { repoRoot } from "../support/spec-document.ts";

/** The `payreq` executable of this checkout (what `npx payreq` runs). */
export const payreqBin = path.join(repoRoot, "bin", "payreq.mjs");

/** Runs `payreq ...args` to its end, with no sandbox settings inherited from the environment. */
export function runPayreq(args: string[], env: NodeJS.ProcessEnv = {}): Promise<FinishedRun> {
  return runToEnd(process.execPath, [payreqBin, ...args], {
    cwd: repoRoot,
    env: { ...process.env, PAYREQ_API_KEY: "", PORT: "", PAYREQ_CONFIG: "", ...env },
  });
}

export interface RunningPayreq {
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves with the first match of `pattern` in the output, now or once it appears. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  /** Sends the signal to the command itself and resolves with its exit status. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Kills the command's whole process group (Prism included) if it still runs; safe to call twice. */
  kill(): Promise<void>;
}

/** A guard against a hang, not a timing assertion: the wait fails with the output so far. */
const patienceMs = 90_000;

/** Starts a long-running `payreq ...args` in its own process group and waits for `ready` in its output. */
export async function startPayreq(args: string[], ready: RegExp): Promise<RunningPayreq> {
  const child = spawn(process.execPath, [payreqBin, ...args], {
    cwd: repoRoot,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, PAYREQ_API_KEY: "", PORT: "", PAYREQ_CONFIG: "" },
  });
  const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  let output = "";
  const watchers = new Set<() => void>();
  const collect = (chunk: Buffer) => {
    output += chunk.toString("utf8");
    for (const watcher of watchers) watcher();
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);

  const isRunning = () => child.exitCode === null && child.signalCode === null;
  const waitFor = (pattern: RegExp) =>
    new Promise<RegExpMatchArray>((resolve, reject) => {
      const check = () => {
        const match = pattern.exec(output);
        if (match) {
          done();
          resolve(match);
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no ${pattern} in the output of payreq ${args.join(" ")}:\n${output}`));
      }, patienceMs);
      const onExit = () => {
        check();
        done();
        reject(new Error(`payreq ${args.join(" ")} exited before printing ${pattern}:\n${output}`));
      };
      const done = () => {
        clearTimeout(timer);
        watchers.delete(check);
        child.off("exit", onExit);
      };
      watchers.add(check);
      if (isRunning()) child.once("exit", onExit);
      else setImmediate(onExit);
      check();
    });

  const running: RunningPayreq = {
    child,
    output: () => output,
    waitFor,
    async stop(signal = "SIGTERM") {
      if (isRunning()) child.kill(signal);
      const [code] = await exited;
      return code;
    },
    async kill() {
      if (!isRunning() || child.pid === undefined) return;
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
      await exited;
    },
  };
  try {
    await waitFor(ready);
  } catch (error) {
    await running.kill();
    throw error;
  }
  return running;
}
