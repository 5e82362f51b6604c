import path from "node:path";
import { repoRoot } from "../../scripts/run-tool.ts";
import { guideBlocks } from "./compile-guide-snippets.ts";
import { runGuideCommands } from "./run-guide-commands.ts";
import type { FinishedRun } from "./run-to-end.ts";
import { type RunningProcess, startProcess } from "./start-process.ts";

const runBundled = path.join(repoRoot, "scripts", "run-bundled.mjs");
export const startServerScript = path.join(repoRoot, "scripts", "start-server.ts");

/** Starts scripts/start-server.ts as `npm start` does (from its bundle) and waits for its banner. */
export async function startServerScriptProcess(
  args: string[],
): Promise<{ server: RunningProcess; banner: string; url: string }> {
  const server = await startProcess(process.execPath, [runBundled, startServerScript, ...args], {
    name: `npm start -- ${args.join(" ")}`,
    ready: /Stop with Ctrl\+C\./,
  });
  const banner = server.output();
  const url = /API:\s+(http:\/\/\S+)/.exec(banner)?.[1];
  if (url === undefined) {
    await server.kill();
    throw new Error(`no API URL in the banner:\n${banner}`);
  }
  return { server, banner, url };
}

/** The fenced `sh` blocks of one `##` section of a guide (a path from the repository root). */
export function shellBlocks(guidePath: string, section: string): string[] {
  return guideBlocks(guidePath, "sh", section);
}

const guideBase = "BASE=http://127.0.0.1:3000\n";

/**
 * Runs a guide's shell walkthrough as written, with only its first line
 * `BASE=http://127.0.0.1:3000` pointed at `url`. Stops at the first failing command.
 */
export function runWalkthrough(walkthrough: string, url: string): Promise<FinishedRun> {
  if (!walkthrough.startsWith(guideBase)) throw new Error(`the walkthrough does not start with ${guideBase}`);
  return runGuideCommands(walkthrough.replace(guideBase, `BASE=${url}\n`));
}
