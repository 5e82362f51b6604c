import { fileURLToPath } from "node:url";

/** The SQL migrations, at the package root: src/ and dist/ are the same depth below it. */
export const migrationsDirectory = fileURLToPath(new URL("../../../../migrations", import.meta.url));

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
    dir: migrationsDirectory,
    direction: "up",
    migrationsTable: "pgmigrations",
    checkOrder: true,
    advisoryLockMode: "wait",
    logger: quiet,
  });
}
