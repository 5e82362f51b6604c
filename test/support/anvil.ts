import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { inject } from "vitest";
import { resolveAnvilBinary } from "../../src/chain/local/anvil-process.ts";
import { type LocalChain, startLocalChain } from "../../src/chain/local/local-chain.ts";
import { describeUnless } from "./describe-unless.ts";

/** Why anvil cannot run here, or undefined when it can; in CI (CI set) it must, and fails instead. */
function findAnvilSkipReason(): string | undefined {
  if (process.env.CI) return undefined;
  let binary: string;
  try {
    binary = resolveAnvilBinary();
  } catch (error) {
    return (error as Error).message;
  }
  const run = spawnSync(binary, ["--version"], { encoding: "utf8", timeout: 30_000 });
  if (run.error) return `anvil (${binary}) cannot run: ${run.error.message}`;
  if (run.status !== 0) return `anvil (${binary}) exits with status ${run.status}: ${run.stderr.trim()}`;
  return undefined;
}

export const anvilSkipReason = findAnvilSkipReason();

/** `describe` for tests on a local chain: skipped, with the reason in its name, where anvil cannot run. */
export function describeWithAnvil(name: string, tests: () => void): void {
  describeUnless(anvilSkipReason, name, tests);
}

let shared: Promise<LocalChain> | undefined;

/**
 * The local sepolia of this test process: one anvil with the Request Network contracts, started at
 * the first call and stopped when the process ends (src/chain/local/anvil-process.ts), or by the
 * run's teardown (anvil-global-setup.ts).
 */
export function sharedLocalChain(): Promise<LocalChain> {
  shared ??= startLocalChain().then((chain) => {
    // The run's teardown ends it should this process be ended without its exit handlers.
    if (chain.nodePid !== undefined) {
      writeFileSync(path.join(inject("anvilPidFolder"), `${chain.nodePid}.pid`), String(chain.nodePid));
    }
    return chain;
  });
  return shared;
}
