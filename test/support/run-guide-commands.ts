import { spawn } from "node:child_process";
import { repoRoot } from "../../scripts/run-tool.ts";
import type { FinishedRun } from "./run-to-end.ts";
import { envWithoutSandboxSettings } from "./start-process.ts";

/** A guard against a hang, not a timing assertion. */
const patienceMs = 60_000;

/**
 * Runs a guide's shell commands as a reader pastes them, with bash `-e -o pipefail` from the
 * repository root, in a process group of their own: whatever they leave running in the
 * background (a receiver the guide starts with `&`) is killed once the shell ends.
 */
export function runGuideCommands(script: string, env: NodeJS.ProcessEnv = {}): Promise<FinishedRun> {
  return new Promise((resolve, reject) => {
    const shell = spawn("bash", ["-e", "-o", "pipefail", "-c", script], {
      cwd: repoRoot,
      env: { ...envWithoutSandboxSettings, ...env },
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    shell.stdout.on("data", (chunk: Buffer) => {
      stdout += chunk.toString("utf8");
    });
    shell.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    const killGroup = () => {
      try {
        if (shell.pid !== undefined) process.kill(-shell.pid, "SIGKILL");
      } catch {
        // the group has ended already
      }
    };
    const timer = setTimeout(() => {
      killGroup();
      reject(new Error(`the guide's commands did not end within ${patienceMs} ms:\n${stdout}\n${stderr}`));
    }, patienceMs);
    shell.on("error", reject);
    // Once the shell ends, nothing it started may outlive it; the pipes then close.
    shell.on("exit", killGroup);
    shell.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}
