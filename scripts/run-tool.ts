import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Keeps Redocly quiet and offline: no telemetry, no update check. */
const quietToolEnv = {
  ...process.env,
  REDOCLY_TELEMETRY: "off",
  REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
  NO_COLOR: "1",
};

export interface ToolResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** Where a tool runs: the repository root unless `cwd` says otherwise. */
export interface ToolOptions {
  cwd?: string;
}

/** Runs a CLI installed in node_modules/.bin from the repository root, without a shell. */
export function runTool(tool: string, args: string[], options: ToolOptions = {}): ToolResult {
  return runExecutable(path.join(repoRoot, "node_modules", ".bin", tool), args, options);
}

/** Runs an executable from the repository root, without a shell. */
export function runExecutable(executable: string, args: string[], options: ToolOptions = {}): ToolResult {
  const result = spawnSync(executable, args, {
    cwd: options.cwd ?? repoRoot,
    env: quietToolEnv,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw result.error;
  return { status: result.status ?? 1, stdout: result.stdout, stderr: result.stderr };
}

/** Runs a tool and throws with its output when it fails. */
export function runToolOrThrow(tool: string, args: string[], options: ToolOptions = {}): ToolResult {
  const result = runTool(tool, args, options);
  if (result.status !== 0) {
    throw new Error(
      `${tool} ${args.join(" ")} failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`,
    );
  }
  return result;
}
