import path from "node:path";
import { repoRoot } from "../../scripts/run-tool.ts";
import { runCli } from "../../src/cli/run-cli.ts";
import { type FinishedRun, runToEnd } from "../support/run-to-end.ts";
import { envWithoutSandboxSettings, type RunningProcess, startProcess } from "../support/start-process.ts";

/** The `payreq` executable of this checkout (what `npx payreq` runs). */
export const payreqBin = path.join(repoRoot, "bin", "payreq.cjs");

/** Runs `payreq ...args` to its end, with no sandbox settings inherited from the environment. */
export function runPayreq(args: string[], env: NodeJS.ProcessEnv = {}): Promise<FinishedRun> {
  return runToEnd(process.execPath, [payreqBin, ...args], {
    cwd: repoRoot,
    env: { ...envWithoutSandboxSettings, ...env },
  });
}

/**
 * Runs `payreq ...args` in this process, through the same runCli that bin/payreq.cjs calls, with
 * its output captured: for command lines refused before any work is done, and for commands that
 * only send requests and print (`webhooks trigger`), where a process of its own would add only
 * its start-up. The executable itself is tested by spawning it (runPayreq).
 */
export async function runPayreqInProcess(args: string[], env: NodeJS.ProcessEnv = {}): Promise<FinishedRun> {
  let stdout = "";
  let stderr = "";
  const status = await runCli(args, {
    stdout: {
      write: (text: string) => {
        stdout += text;
      },
    },
    stderr: {
      write: (text: string) => {
        stderr += text;
      },
    },
    env: { ...envWithoutSandboxSettings, ...env },
  });
  return { status, stdout, stderr };
}

export type RunningPayreq = RunningProcess;

/** Starts a long-running `payreq ...args` in its own process group and waits for `ready` in its output. */
export function startPayreq(
  args: string[],
  ready: RegExp,
  env: NodeJS.ProcessEnv = {},
): Promise<RunningPayreq> {
  return startProcess(process.execPath, [payreqBin, ...args], {
    name: `payreq ${args.join(" ")}`,
    ready,
    env: { ...envWithoutSandboxSettings, ...env },
  });
}
