import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The SQL migrations, at the package root: the nearest folder above this module that holds
 * package.json and migrations/. Searched, not counted: this file sits four folders deep in src/
 * and dist/, but two deep when it is part of a bundle (.cache/cli/run-cli.cjs, dist/cli/main.cjs).
 */
export function findMigrationsDirectory(start = path.dirname(fileURLToPath(import.meta.url))): string {
  for (let folder = start; ; folder = path.dirname(folder)) {
    const migrations = path.join(folder, "migrations");
    if (existsSync(path.join(folder, "package.json")) && existsSync(migrations)) return migrations;
    if (path.dirname(folder) === folder) throw new Error(`no package folder with migrations/ above ${start}`);
  }
}

const quiet = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/**
 * Brings the database's schema up to date with node-pg-migrate. Several instances starting at
 * once take turns: the library's advisory lock makes the others wait, then find nothing to do.
 */
export async function migrateDatabase(connectionString: string): Promise<void> {
  // Loaded only when a database is used: the in-memory sandbox never needs it.
  const { runner } = await import("node-pg-migrate");
  await runner({
    databaseUrl: connectionString,
    dir: findMigrationsDirectory(),
    direction: "up",
    migrationsTable: "pgmigrations",
    checkOrder: true,
    advisoryLockMode: "wait",
    logger: quiet,
  });
}
