import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { repoRoot } from "../../scripts/run-tool.ts";

/** This environment without the sandbox settings a developer may have exported, which would change what commands do. */
export const envWithoutSandboxSettings: NodeJS.ProcessEnv = {
  ...process.env,
  PAYREQ_API_KEY: "",
  PORT: "",
  PAYREQ_CONFIG: "",
  DATABASE_URL: "",
};

export interface RunningProcess {
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves with the first match of `pattern` in the output, now or once it appears. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  /** Sends the signal to the command itself and resolves with its exit status. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Kills the command's whole process group (what it started included) if it still runs; safe to call twice. */
  kill(): Promise<void>;
}

export interface StartOptions {
  /** How errors name the command, such as `payreq serve --port 0`. */
  name: string;
  /** What the command prints once it is ready. */
  ready: RegExp;
  env?: NodeJS.ProcessEnv;
}

/** A guard against a hang, not a timing assertion: the wait fails with the output so far. */
const patienceMs = 90_000;

/**
 * Starts a long-running command from the repository root in its own process group and waits for
 * `ready` in its output; fails with that output if it exits first or never prints it.
 */
export async function startProcess(
  command: string,
  args: readonly string[],
  options: StartOptions,
): Promise<RunningProcess> {
  const { name } = options;
  const child = spawn(command, args, {
    cwd: repoRoot,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: options.env ?? envWithoutSandboxSettings,
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
        reject(new Error(`no ${pattern} in the output of ${name}:\n${output}`));
      }, patienceMs);
      const onExit = () => {
        check();
        done();
        reject(new Error(`${name} exited before printing ${pattern}:\n${output}`));
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

  const running: RunningProcess = {
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
    await waitFor(options.ready);
  } catch (error) {
    await running.kill();
    throw error;
  }
  return running;
}
