import { type SpawnSyncReturns, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { repoRoot } from "../../scripts/run-tool.ts";
import { type RunningProcess, startProcess } from "./start-process.ts";

const tsx = path.join(repoRoot, "node_modules", ".bin", "tsx");
export const startServerScript = path.join(repoRoot, "scripts", "start-server.ts");

/** Starts scripts/start-server.ts (what `npm start` runs) and waits for its banner. */
export async function startServerScriptProcess(
  args: string[],
): Promise<{ server: RunningProcess; banner: string; url: string }> {
  const server = await startProcess(tsx, [startServerScript, ...args], {
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
  const doc = readFileSync(path.join(repoRoot, guidePath), "utf8");
  const start = doc.indexOf(`## ${section}\n`);
  if (start < 0) throw new Error(`${guidePath} has no section "${section}"`);
  const end = doc.indexOf("\n## ", start + 1);
  const text = doc.slice(start, end < 0 ? undefined : end);
  return [...text.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] as string);
}

/**
 * Runs a guide's shell walkthrough as written, from the repository root, with only its first line
 * `BASE=http://127.0.0.1:3000` pointed at `url`. Stops at the first failing command.
 */
export function runWalkthrough(walkthrough: string, url: string): SpawnSyncReturns<string> {
  const base = "BASE=http://127.0.0.1:3000\n";
  if (!walkthrough.startsWith(base)) throw new Error(`the walkthrough does not start with ${base}`);
  return spawnSync("bash", ["-e", "-o", "pipefail", "-c", walkthrough.replace(base, `BASE=${url}\n`)], {
    cwd: repoRoot,
    encoding: "utf8",
    timeout: 60_000,
  });
}
