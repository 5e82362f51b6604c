import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { stopSharedPostgres } from "./postgres.ts";

/** Gives the run a folder to record its shared PostgreSQL server in, and stops that server at the end. */
export default function setup(project: TestProject): () => Promise<void> {
  const folder = mkdtempSync(path.join(tmpdir(), "payreq-pg-run-"));
  project.provide("sharedPostgresFolder", folder);
  return () => stopSharedPostgres(folder);
}
