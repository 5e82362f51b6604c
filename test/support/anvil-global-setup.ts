import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    /** Where the test processes record the anvil nodes they start (test/support/anvil.ts). */
    anvilPidFolder: string;
  }
}

/**
 * Gives the run a folder where each test process records the anvil it started, and ends those
 * nodes at the end of the run: a worker that vitest ends does not always run its exit handlers.
 */
export default function setup(project: TestProject): () => void {
  const folder = mkdtempSync(path.join(tmpdir(), "payreq-anvil-run-"));
  project.provide("anvilPidFolder", folder);
  return () => {
    for (const file of readdirSync(folder)) {
      const pid = Number(readFileSync(path.join(folder, file), "utf8"));
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Already ended with its test process.
      }
    }
    rmSync(folder, { recursive: true, force: true });
  };
}
