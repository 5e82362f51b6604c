import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { stopSharedPrism } from "./shared-prism.ts";

/** Gives the run a folder to record its shared Prism mock in, and stops that mock at the end. */
export default function setup(project: TestProject): () => Promise<void> {
  const folder = mkdtempSync(path.join(tmpdir(), "payreq-prism-run-"));
  project.provide("sharedPrismFolder", folder);
  return () => stopSharedPrism(folder);
}
